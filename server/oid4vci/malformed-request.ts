import { OAuthError } from './oauth-error.js';

/**
 * The OAuth error for a request an endpoint cannot read or understand (a body that is not JSON, a
 * wrong media type, a field of the wrong shape). OID4VCI's credential endpoint (1.0 section
 * 8.3.1.2) and notification endpoint (section 11.3) name such requests with their own code instead
 * of the generic `invalid_request`; every other endpoint keeps RFC 6749's. The status stays what the
 * fault is (400, or 413 and 415 from the body parsers and the media type guard).
 */
export function malformedRequest(path: string, status: number, detail: string): OAuthError {
  const endpoint = path.replace(/\/+$/, '');
  if (endpoint === '/oid4vci/v1/credential')
    return new OAuthError(status, 'invalid_credential_request', detail);
  if (endpoint === '/oid4vci/v1/notification')
    return new OAuthError(status, 'invalid_notification_request', detail);
  return new OAuthError(status, 'invalid_request', detail);
}
