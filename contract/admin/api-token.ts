import { z } from 'zod';

export const TokenKind = z.enum(['integrator', 'scim']);

/**
 * What a token may do: `full` everything its kind allows; `read` only reads (GET), so an auditor's
 * console session, or a reporting job, can look at everything and change nothing.
 */
export const TokenScope = z.enum(['full', 'read']);

export const ApiTokenCreateRequest = z
  .object({
    kind: TokenKind,
    scope: TokenScope.default('full').describe('read: GET requests only; every change is refused 403'),
    expires_at: z.string().datetime().optional().describe('Absent: the token does not expire'),
  })
  .strict();

export const ApiTokenInfo = z.object({
  id: z.string().uuid(),
  kind: TokenKind,
  scope: TokenScope,
  created_at: z.string().datetime(),
  expires_at: z.string().datetime().nullable(),
  revoked_at: z.string().datetime().nullable(),
});

export const ApiTokenCreated = ApiTokenInfo.extend({
  token: z.string().describe('Shown once; only its hash is kept'),
});

export const ApiTokenList = z.object({ items: z.array(ApiTokenInfo) });
