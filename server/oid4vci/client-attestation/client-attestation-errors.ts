import { OAuthError } from '../oauth-error.js';

/**
 * RFC 6749 section 5.2 `invalid_client`: the wallet attestation or its proof of possession does
 * not verify (draft-ietf-oauth-attestation-based-client-auth, Errors). 401, as for the other
 * client authentication methods of this token endpoint.
 */
export const invalidClient = (d: string) => new OAuthError(401, 'invalid_client', d);
