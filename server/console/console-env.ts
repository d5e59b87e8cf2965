import { z } from 'zod';

/** The console's settings (README: Configuration). */
export const ConsoleEnv = z.object({
  /** A console session unused this long ends (seconds). */
  CONSOLE_IDLE_SECONDS: z.coerce.number().int().min(5).max(86_400).default(900),
  /** … and any session ends this long after sign-in, used or not (seconds). */
  CONSOLE_MAX_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(8 * 3600),
});
