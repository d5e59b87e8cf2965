import { z } from 'zod';
import { S256_CODE_CHALLENGE } from './pkce.js';

/**
 * The form of POST /oauth2/par (RFC 9126; OID4VCI 1.0 section 5.1; HAIP 1.0): a wallet's authorization
 * request for the credential of an offer with an authorization_code grant. PKCE S256 only; the
 * wallet authenticates with a wallet attestation where sent (required with WALLET_ATTESTATION_REQUIRED).
 */
export const PushedAuthorizationRequest = z.object({
  response_type: z.literal('code'),
  client_id: z.string(),
  redirect_uri: z.string(),
  state: z.string().optional(),
  code_challenge: z.string().regex(S256_CODE_CHALLENGE),
  code_challenge_method: z.literal('S256'),
  scope: z
    .string()
    .describe(
      'Space-separated; each value naming a credential configuration (its scope in the issuer metadata) is a request of its own, unknown values are ignored, at least one must be known (else invalid_scope)',
    ),
  issuer_state: z.string().describe('The issuer_state of the credential offer’s authorization_code grant'),
  dpop_jkt: z.string().optional().describe('Binds the code to this DPoP key (RFC 9449 section 10)'),
});

/** RFC 9126 section 2.2. */
export const PushedAuthorizationResponse = z.object({
  request_uri: z.string().describe('For GET /oauth2/authorize, with the same client_id'),
  expires_in: z.number().int(),
});
