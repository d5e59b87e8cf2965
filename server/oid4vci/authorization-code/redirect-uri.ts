import { invalidRequest } from '../oauth-error.js';

// Schemes a browser would run rather than hand to an app.
const DANGEROUS = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

/**
 * Wallets are not registered (HAIP: any attested or public wallet), so the redirect_uri cannot be
 * matched against a registration: it must be an absolute URI without fragment (RFC 6749 section
 * 3.1.2), http only on loopback, and no scheme that would run in the browser. The code it receives
 * is worthless without the wallet's PKCE verifier (and DPoP key, when bound).
 */
export function checkRedirectUri(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalidRequest('redirect_uri must be an absolute URI');
  }
  if (url.hash || uri.includes('#')) throw invalidRequest('redirect_uri must not have a fragment');
  if (DANGEROUS.has(url.protocol)) throw invalidRequest(`redirect_uri must not use ${url.protocol}`);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && !loopback) throw invalidRequest('redirect_uri must use https');
  return uri;
}
