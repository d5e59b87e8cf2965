import { z } from 'zod';

/** Where /metrics is served; part of the service's configuration (server/config.ts, README). */
export const MetricsEnv = z.object({
  /** Bearer token that GET /metrics requires; unset (and no METRICS_PORT): no /metrics at all. */
  METRICS_TOKEN: z
    .string()
    .min(32, 'must be at least 32 characters (e.g. the output of `openssl rand -hex 32`)')
    .optional(),
  /** A port of its own for /metrics (every role, workers included), bound to METRICS_HOST. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
});

export type MetricsSettings = z.infer<typeof MetricsEnv>;
