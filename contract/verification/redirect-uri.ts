const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** RFC 8252 section 7.1: an app's private-use scheme is a domain name it controls, reversed. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/**
 * Where an integrator may have the wallet send its user after a presentation: https anywhere, plain
 * http only on the loopback interface (development), or an app's private-use scheme
 * (`com.example.app:/done`). Never javascript:, data:, file: or other schemes that run or read
 * something on the holder's device, and never a fragment (the wallet appends the response code).
 */
export function isIntegratorRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (value.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return PRIVATE_USE_SCHEME.test(url.protocol);
}
