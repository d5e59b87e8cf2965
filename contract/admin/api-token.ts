import { z } from 'zod';

export const TokenKind = z.enum(['integrator', 'scim']);

export const ApiTokenCreateRequest = z
  .object({
    kind: TokenKind,
    expires_at: z.string().datetime().optional().describe('Absent: the token does not expire'),
  })
  .strict();

export const ApiTokenInfo = z.object({
  id: z.string().uuid(),
  kind: TokenKind,
  created_at: z.string().datetime(),
  expires_at: z.string().datetime().nullable(),
  revoked_at: z.string().datetime().nullable(),
});

export const ApiTokenCreated = ApiTokenInfo.extend({
  token: z.string().describe('Shown once; only its hash is kept'),
});

export const ApiTokenList = z.object({ items: z.array(ApiTokenInfo) });
