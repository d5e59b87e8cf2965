import { z } from 'zod';

export const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

export const DELIVERY_MODES = ['ui', 'email', 'direct'] as const;
export type DeliveryModeName = (typeof DELIVERY_MODES)[number];

/** A public P-256 JWK: the key a directly delivered credential is bound to. */
export const HolderKey = z
  .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string().min(43), y: z.string().min(43) })
  .passthrough()
  .refine((k) => !('d' in k), 'must be a public key (no "d")');

/**
 * `delivery`: one mode or a comma-separated set of `ui`, `email`, `direct`; absent means the tenant's
 * mode. `ui` returns the offer for the caller to show and mails only the tx_code; `email` mails the
 * offer link and, separately, the tx_code; `direct` returns the signed credential in the response.
 */
export const IssuanceRequest = z
  .object({
    credential_configuration_id: z.string().min(1).max(200),
    payload: z.record(z.unknown()),
    delivery: z
      .string()
      .regex(/^(ui|email|direct)(,(ui|email|direct))*$/, 'one or more of ui, email, direct, comma-separated')
      .optional(),
    email: z.string().email().optional(),
    grant_type: z.literal(PRE_AUTHORIZED_CODE_GRANT).optional(),
    holder_key: HolderKey.optional(),
  })
  .strict();

export type IssuanceRequest = z.infer<typeof IssuanceRequest>;
