import { z } from 'zod';

export const KeyPurpose = z.enum(['issuer', 'status-list', 'verifier', 'oidc', 'audit']);

export const SigningKeyInfo = z.object({
  kid: z.string(),
  purpose: KeyPurpose,
  alg: z.literal('ES256'),
  status: z.enum(['active', 'retiring', 'retired']),
  public_jwk: z.record(z.string()),
  created_at: z.string().datetime(),
});

export const SigningKeyList = z.object({ items: z.array(SigningKeyInfo) });
