import { OAuthError } from '../oauth-error.js';

/**
 * RFC 9449 error codes. At the token endpoint they are RFC 6749 section 5.2 errors (400, JSON); at
 * the credential and notification endpoints (protected resources) they become 401 with a
 * `WWW-Authenticate: DPoP error=…` challenge (section 7.1), see `atResource`.
 */
export const invalidDpopProof = (d: string) => new OAuthError(400, 'invalid_dpop_proof', d);

/** Section 8 / 9: the proof lacks our current nonce; the fresh one comes in `DPoP-Nonce`. */
export const useDpopNonce = (nonce: string) =>
  new OAuthError(400, 'use_dpop_nonce', 'use the DPoP-Nonce this response carries in the DPoP proof', {
    headers: { 'DPoP-Nonce': nonce },
  });

/** The same error as a protected resource answers it: 401 with a DPoP challenge. */
export const atResource = (e: OAuthError) =>
  new OAuthError(401, e.error, e.description, { ...e.extra, scheme: 'DPoP' });
