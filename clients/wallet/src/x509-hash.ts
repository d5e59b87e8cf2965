import { createHash, type KeyObject, type X509Certificate } from 'node:crypto';
import { base64url } from 'jose';
import { WalletError } from './errors.js';
import { checkX5cChain, type X5cCheckOptions } from './x5c-chain.js';

export type { X5cCheckOptions } from './x5c-chain.js';

export const X509_HASH_PREFIX = 'x509_hash:';

/** The `x509_hash` Client Identifier value: base64url(SHA-256(DER of the certificate)), OID4VP §5.9.3. */
export const x509Hash = (der: Uint8Array): string =>
  base64url.encode(createHash('sha256').update(der).digest());

/**
 * Authenticates an `x509_hash:<hash>` client from the `x5c` header of its Request Object and returns
 * the leaf certificate's public key, the one key the request must be signed with (OID4VP §5.9.3).
 * Further certificates in `x5c` must chain (each signed by the next), every certificate must be
 * within its validity, and with `trustAnchors` the chain must end in one of them.
 */
export function authenticateX509HashClient(
  clientId: string,
  x5c: unknown,
  opts: X5cCheckOptions = {},
): KeyObject {
  if (!clientId.startsWith(X509_HASH_PREFIX)) throw new WalletError(`${clientId} is not an x509_hash client`);
  if (Array.isArray(x5c) && typeof x5c[0] === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(x5c[0])) {
    const expected = clientId.slice(X509_HASH_PREFIX.length);
    const actual = x509Hash(Buffer.from(x5c[0], 'base64'));
    if (actual !== expected)
      throw new WalletError(
        `x509_hash: the leaf certificate hashes to ${actual}, not the client_id's ${expected}`,
      );
  }
  const certs = checkX5cChain(x5c, opts, 'x509_hash');
  return (certs[0] as X509Certificate).publicKey;
}
