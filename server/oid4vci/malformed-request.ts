import { invalidCredentialRequest, invalidNotificationRequest, OAuthError } from './oauth-error.js';

/**
 * The OAuth error for a request an endpoint cannot read or understand (a body that is not JSON, a
 * wrong media type, a field of the wrong shape). OID4VCI's credential endpoint (1.0 section
 * 8.3.1.2) and notification endpoint (section 11.3) answer such requests with their own code and
 * status 400 instead of the generic `invalid_request`; every other endpoint keeps RFC 6749's.
 */
export function malformedRequest(path: string, status: number, detail: string): OAuthError {
  const endpoint = path.replace(/\/+$/, '');
  if (endpoint === '/oid4vci/v1/credential') return invalidCredentialRequest(detail);
  if (endpoint === '/oid4vci/v1/notification') return invalidNotificationRequest(detail);
  return new OAuthError(status, 'invalid_request', detail);
}
