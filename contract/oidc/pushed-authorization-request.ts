import { z } from 'zod';
import { S256_CODE_CHALLENGE } from './pkce.js';

/**
 * The form of POST /oauth2/par (RFC 9126), one of two requests, PKCE S256 only for both:
 * - A wallet's issuance (OID4VCI 1.0 section 5.1; HAIP 1.0): the credential configurations by scope,
 *   issuer_state for an offer's; the wallet authenticates with a wallet attestation where sent
 *   (required with WALLET_ATTESTATION_REQUIRED).
 * - A relying party's sign-in (OpenID Connect Core 3.1.2.1), authenticated as at the token endpoint
 *   (Basic, client_secret or a private_key_jwt assertion); required where the server is also the
 *   issuer's (require_pushed_authorization_requests in the metadata).
 */
export const PushedAuthorizationRequest = z.object({
  response_type: z.literal('code'),
  client_id: z.string().describe('The wallet, or a relying party registered for a tenant'),
  redirect_uri: z.string().describe('Sign-in: one of the client’s registered redirect URIs, exactly'),
  state: z.string().max(1024).optional(),
  code_challenge: z.string().regex(S256_CODE_CHALLENGE),
  code_challenge_method: z.literal('S256'),
  scope: z
    .string()
    .describe(
      'Sign-in: space-separated, must contain openid. Issuance: each value naming a credential configuration (its scope in the issuer metadata) is a request of its own, unknown values are ignored, at least one must be known (else invalid_scope)',
    ),
  nonce: z.string().min(1).max(512).optional().describe('Sign-in: required; returned in the ID token'),
  issuer_state: z
    .string()
    .optional()
    .describe('Issuance: the issuer_state of the credential offer’s authorization_code grant'),
  dpop_jkt: z.string().optional().describe('Issuance: binds the code to this DPoP key (RFC 9449 section 10)'),
  client_secret: z.string().optional().describe('Sign-in: client_secret_post'),
  client_assertion_type: z
    .literal('urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
    .optional()
    .describe('Sign-in: private_key_jwt'),
  client_assertion: z
    .string()
    .optional()
    .describe('Sign-in: private_key_jwt, aud the issuer, the token endpoint or this endpoint'),
});

/** RFC 9126 section 2.2. */
export const PushedAuthorizationResponse = z.object({
  request_uri: z
    .string()
    .describe('For GET /oauth2/authorize, with the same client_id; good once, for expires_in seconds'),
  expires_in: z.number().int(),
});
