import { z } from 'zod';

/** RFC 6749 section 5.1, and OpenID Connect Core 3.1.3.3 for the authorization_code grant. */
export const OidcTokenResponse = z.object({
  access_token: z.string(),
  token_type: z
    .enum(['Bearer', 'DPoP'])
    .describe('DPoP when a wallet redeemed its code with a DPoP proof: the token is bound to its key'),
  expires_in: z.number().int(),
  id_token: z
    .string()
    .optional()
    .describe('authorization_code: the ID token (ES256) with the claims read from the presented credential'),
  scope: z
    .string()
    .optional()
    .describe(
      'What was granted: openid for a sign-in; for an issuance code, the scope of the one credential configuration the token is for (of those the request asked for)',
    ),
  refresh_token: z
    .string()
    .optional()
    .describe(
      'Credential issuer, when the tenant allows credential refresh: for grant_type=refresh_token. DPoP-bound: not rotated, a refresh returns the same one; unbound: good once, each use returns a new one',
    ),
  authorization_details: z
    .array(z.record(z.unknown()))
    .optional()
    .describe(
      'RFC 9396: for a sign-in that asked for an approval, the approval granted, with its approval_id',
    ),
  approval_receipt: z
    .string()
    .optional()
    .describe(
      'For a sign-in that asked for an approval: the signed receipt (typ approval-receipt+jwt), evidence anyone can check offline',
    ),
});
