import { z } from 'zod';

/** How trust sources are refreshed; part of the service's configuration (server/config.ts). */
export const TrustListEnv = z.object({
  /** The longest a list goes unfetched, whatever its NextUpdate says (a source's refresh_seconds may be shorter). */
  TRUST_LIST_REFRESH_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(6 * 3600),
  /**
   * How long past its NextUpdate the last good copy of a list keeps vouching while fresh copies fail
   * to fetch or validate; after that the source vouches for nothing until a fetch succeeds.
   */
  TRUST_LIST_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(24 * 3600),
  /** How long a list download may take, connect to last byte. */
  TRUST_LIST_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
});

export type TrustListSettings = z.infer<typeof TrustListEnv>;
