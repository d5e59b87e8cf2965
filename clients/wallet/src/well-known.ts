/**
 * The well-known location of a document about an identifier URL: `/.well-known/<suffix>` goes
 * between the host and the path (RFC 8414 §3.1, OID4VCI §12.2.2, SD-JWT VC §5), and a trailing `/`
 * of the path is dropped first. `https://h/tenant` → `https://h/.well-known/<suffix>/tenant`.
 */
export function wellKnownUrl(identifier: string, suffix: string): string {
  const url = new URL(identifier);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/${suffix}${path}`;
}
