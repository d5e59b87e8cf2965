import { z } from 'zod';
import { S256_CODE_CHALLENGE } from './pkce.js';

/**
 * The query of GET /oauth2/authorize; each parameter may appear once. After PAR (RFC 9126), a wallet's
 * issuance or a relying party's sign-in: client_id and request_uri only. A relying party's sign-in
 * sent directly (OpenID Connect Core 3.1.2.1, PKCE S256), every parameter but request_uri, is taken
 * only by the verifier on a host name of its own; where the server is also the issuer's it requires
 * PAR and sends the request back to the redirect_uri with invalid_request.
 */
export const OidcAuthorizeQuery = z.object({
  client_id: z
    .string()
    .describe('A relying party registered for a tenant (admin API: oidc-clients), or the wallet of a PAR'),
  request_uri: z
    .string()
    .optional()
    .describe(
      'The request_uri /oauth2/par returned: a sign-in’s login page, or an issuance’s page that asks for a code mailed to the holder',
    ),
  redirect_uri: z
    .string()
    .optional()
    .describe('Sign-in without PAR: one of the client’s registered redirect URIs, character for character'),
  response_type: z.literal('code').optional().describe('Sign-in: required'),
  scope: z.string().optional().describe('Sign-in: space-separated, must contain openid'),
  state: z.string().max(1024).optional().describe('Sign-in: returned unchanged to the redirect_uri'),
  nonce: z.string().min(1).max(512).optional().describe('Sign-in: required; returned in the ID token'),
  code_challenge: z
    .string()
    .regex(S256_CODE_CHALLENGE)
    .optional()
    .describe('Sign-in: required (PKCE, RFC 7636), the base64url SHA-256 of the code_verifier'),
  code_challenge_method: z.literal('S256').optional().describe('Sign-in: required'),
  response_mode: z.literal('query').optional(),
});

/**
 * The query of GET /oauth2/authorize/complete: from the login page (`session`), or from the wallet's
 * same-device redirect (`state` with `code`, the OID4VP response_code).
 */
export const OidcAuthorizeCompleteQuery = z.object({
  session: z
    .string()
    .optional()
    .describe('The login’s presentation session; the browser must hold its cookie'),
  state: z.string().optional().describe('Same-device redirect: the session'),
  code: z
    .string()
    .optional()
    .describe('Same-device redirect: the response_code the verifier gave the wallet'),
});
