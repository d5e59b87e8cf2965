import { z } from 'zod';

/**
 * The form of POST /oauth2/token (RFC 6749 section 4.1.3, OID4VCI 1.0 section 6.1), one grant per
 * request. The client authenticates by exactly one method: HTTP Basic, client_secret in the form, or a
 * private_key_jwt assertion (RFC 7523); the pre-authorized code grant needs none (or a wallet
 * attestation in the OAuth-Client-Attestation headers), and the refresh token grant the wallet
 * attestation its first grant had, if any.
 */
export const OidcTokenRequest = z.object({
  grant_type: z
    .enum(['authorization_code', 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'refresh_token'])
    .describe('The grants the metadata at this host lists'),
  code: z
    .string()
    .optional()
    .describe(
      'authorization_code: the code from the redirect (of a sign-in, an integrator session or an issuance)',
    ),
  redirect_uri: z
    .string()
    .optional()
    .describe('authorization_code of a sign-in or an issuance: the one of the request'),
  code_verifier: z
    .string()
    .optional()
    .describe('authorization_code of a sign-in or an issuance: the PKCE verifier'),
  session_binding: z
    .string()
    .optional()
    .describe('authorization_code of an integrator session: the secret its creation answer returned'),
  client_id: z.string().optional(),
  client_secret: z.string().optional().describe('client_secret_post'),
  client_assertion_type: z
    .literal('urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
    .optional()
    .describe('private_key_jwt'),
  client_assertion: z.string().optional().describe('private_key_jwt: a JWT signed with a registered key'),
  'pre-authorized_code': z.string().optional().describe('The pre-authorized code of a credential offer'),
  tx_code: z.string().optional().describe('The code the employee received by e-mail'),
  refresh_token: z
    .string()
    .optional()
    .describe(
      'refresh_token (credential issuer): the refresh token of the last token response; DPoP-bound ones stay the same, others are used once and replaced',
    ),
});

/** Headers of a wallet's token request (the pre-authorized code, or the code of an issuance), and of PAR. */
export const OidcTokenRequestHeaders = z.object({
  dpop: z.string().optional().describe('A DPoP proof (RFC 9449): binds the access token to its key'),
  'oauth-client-attestation': z
    .string()
    .optional()
    .describe('Wallet attestation (attest_jwt_client_auth), with its proof of possession'),
  'oauth-client-attestation-pop': z.string().optional(),
});
