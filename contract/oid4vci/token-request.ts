import { z } from 'zod';

/**
 * OID4VCI 1.0 section 6.1 / RFC 6749 section 4.1.3, form-encoded. Fields are checked by the token
 * endpoint itself so that each problem gets its OAuth error code (unsupported_grant_type, …).
 */
export const TokenRequest = z
  .object({
    grant_type: z.string().optional(),
    'pre-authorized_code': z.string().optional(),
    tx_code: z.string().optional(),
    refresh_token: z.string().optional(),
  })
  .passthrough();

/**
 * RFC 6749 section 5.1. `token_type` is DPoP when the request carried a DPoP proof and the token is
 * bound to its key (RFC 9449 section 5), Bearer otherwise.
 */
export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.enum(['Bearer', 'DPoP']),
  expires_in: z.number().int(),
  refresh_token: z
    .string()
    .optional()
    .describe(
      'When the tenant allows credential refresh: for grant_type=refresh_token (RFC 6749 section 6), good once, bound like the access token',
    ),
});
