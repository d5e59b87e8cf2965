import { z } from 'zod';

const perWindow = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/**
 * The request limits; part of the service's configuration (server/config.ts). 0 turns a limit off.
 * Per client address: every request, and stricter ones for the token endpoints, sign-in starts,
 * wrong tx_codes (across all offers) and the admin API. Per tenant: authenticated integrator and
 * SCIM requests, with `RATE_LIMIT_TENANT_OVERRIDES` (`acme=5000,globex=100`) for single tenants.
 */
export const RateLimitEnv = z.object({
  RATE_LIMIT_ADDRESS_PER_MINUTE: perWindow(1200),
  RATE_LIMIT_TOKEN_PER_MINUTE: perWindow(60),
  RATE_LIMIT_SIGN_IN_PER_MINUTE: perWindow(30),
  RATE_LIMIT_TX_CODE_FAILURES_PER_HOUR: perWindow(20),
  RATE_LIMIT_ADMIN_PER_MINUTE: perWindow(300),
  RATE_LIMIT_TENANT_PER_MINUTE: perWindow(3000),
  RATE_LIMIT_TENANT_OVERRIDES: z
    .string()
    .default('')
    .transform((s, ctx) => {
      const overrides = new Map<string, number>();
      for (const entry of s.split(',').map((e) => e.trim())) {
        if (!entry) continue;
        const [tenant, limit] = entry.split('=');
        const n = Number(limit);
        if (!tenant || !Number.isInteger(n) || n < 0) {
          ctx.addIssue({ code: 'custom', message: `${entry} is not tenant=requests-per-minute` });
          return z.NEVER;
        }
        overrides.set(tenant, n);
      }
      return overrides;
    }),
});

export type RateLimitSettings = z.infer<typeof RateLimitEnv>;
