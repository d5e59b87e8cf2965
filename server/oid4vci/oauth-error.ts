import type { Response } from 'express';

/**
 * An error of the OAuth-family endpoints (token, credential, nonce, notification; later OID4VP and
 * OIDC), rendered as RFC 6749 `{ error, error_description }`. Each constructor below is named after
 * the wire code it produces.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    /**
     * Extra response headers (`DPoP-Nonce` with use_dpop_nonce), and the scheme of the 401
     * challenge: RFC 6750 `Bearer` unless a DPoP-protected resource answers (RFC 9449 section 7.1).
     */
    readonly extra: { headers?: Record<string, string>; scheme?: 'Bearer' | 'DPoP' } = {},
  ) {
    super(`${error}: ${description}`);
  }
}

export const invalidRequest = (d: string) => new OAuthError(400, 'invalid_request', d);
export const invalidGrant = (d: string) => new OAuthError(400, 'invalid_grant', d);
export const unsupportedGrantType = (d: string) => new OAuthError(400, 'unsupported_grant_type', d);
export const invalidToken = (d: string) => new OAuthError(401, 'invalid_token', d);
export const credentialRequestDenied = (d: string) => new OAuthError(400, 'credential_request_denied', d);
export const invalidCredentialRequest = (d: string) => new OAuthError(400, 'invalid_credential_request', d);
export const unknownCredentialConfiguration = (d: string) =>
  new OAuthError(400, 'unknown_credential_configuration', d);
export const invalidEncryptionParameters = (d: string) =>
  new OAuthError(400, 'invalid_encryption_parameters', d);
export const invalidProof = (d: string) => new OAuthError(400, 'invalid_proof', d);
export const invalidNonce = (d: string) => new OAuthError(400, 'invalid_nonce', d);
/** OID4VCI 1.0 section 9.3: unknown to this issuer, or already used to obtain the credentials. */
export const invalidTransactionId = (d: string) => new OAuthError(400, 'invalid_transaction_id', d);
export const invalidNotificationId = (d: string) => new OAuthError(400, 'invalid_notification_id', d);
export const invalidNotificationRequest = (d: string) =>
  new OAuthError(400, 'invalid_notification_request', d);
export const notFoundError = (d: string) => new OAuthError(404, 'not_found', d);
export const temporarilyUnavailable = (d: string) =>
  new OAuthError(503, 'temporarily_unavailable', d, { headers: { 'Retry-After': '5' } });
export const serverError = () =>
  new OAuthError(500, 'server_error', 'the request could not be completed; it changed nothing');

/** The one renderer of OAuth errors. Responses are never cached. */
export function sendOAuthError(res: Response, e: OAuthError): void {
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(e.extra.headers ?? {})) res.setHeader(name, value);
  if (e.status === 401) {
    const scheme = e.extra.scheme ?? 'Bearer';
    // RFC 9449 section 7.1: a DPoP challenge names the proof algorithms the resource accepts.
    const algs = scheme === 'DPoP' ? ' algs="ES256",' : '';
    res.setHeader(
      'WWW-Authenticate',
      `${scheme}${algs} error="${e.error}", error_description="${e.description.replaceAll('"', "'")}"`,
    );
  }
  res.status(e.status).json({ error: e.error, error_description: e.description });
}
