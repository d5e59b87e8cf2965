import { z } from 'zod';

/** DPoP at the issuer; part of the service's configuration (server/config.ts, README). */
export const DpopEnv = z.object({
  /**
   * `true`: the token endpoint refuses token requests without a DPoP proof, so every access token
   * is DPoP-bound (HAIP). `false` (default): wallets that send a proof get a DPoP-bound token, the
   * others a Bearer token, as before.
   */
  DPOP_REQUIRED: z.enum(['true', 'false']).default('false'),
});
