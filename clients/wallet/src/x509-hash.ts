import { createHash, type KeyObject, X509Certificate } from 'node:crypto';
import { base64url } from 'jose';
import { WalletError } from './errors.js';

export const X509_HASH_PREFIX = 'x509_hash:';

/** The `x509_hash` Client Identifier value: base64url(SHA-256(DER of the certificate)), OID4VP §5.9.3. */
export const x509Hash = (der: Uint8Array): string =>
  base64url.encode(createHash('sha256').update(der).digest());

export interface X5cCheckOptions {
  /** Seconds since the epoch; now when absent. */
  now?: number;
  /**
   * Certificates (base64 DER) the chain must end in or be issued by. Absent, the hash in the
   * client_id is the only anchor: any verifier with a self-signed certificate is accepted, which
   * suits tests and closed deployments; a wallet in the open should pass its trust list here.
   */
  trustAnchors?: string[];
}

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
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((c) => typeof c === 'string'))
    throw new WalletError('x509_hash: the request object has no x5c certificate chain');
  // x5c holds standard base64 (RFC 7515 §4.1.6), not base64url.
  const ders = x5c.map((c: string) => {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(c)) throw new WalletError('x509_hash: an x5c entry is not base64');
    return Buffer.from(c, 'base64');
  });
  const expected = clientId.slice(X509_HASH_PREFIX.length);
  const actual = x509Hash(ders[0] as Buffer);
  if (actual !== expected)
    throw new WalletError(
      `x509_hash: the leaf certificate hashes to ${actual}, not the client_id's ${expected}`,
    );
  let certs: X509Certificate[];
  try {
    certs = ders.map((der) => new X509Certificate(der));
  } catch {
    throw new WalletError('x509_hash: an x5c entry is not a DER X.509 certificate');
  }
  const now = new Date((opts.now ?? Math.floor(Date.now() / 1000)) * 1000);
  certs.forEach((cert, i) => {
    if (cert.validFromDate > now || cert.validToDate < now)
      throw new WalletError(`x509_hash: certificate ${i} of x5c is not valid now`);
    const issuer = certs[i + 1];
    if (issuer && !(cert.checkIssued(issuer) && cert.verify(issuer.publicKey)))
      throw new WalletError(`x509_hash: certificate ${i} of x5c is not issued by the next one`);
  });
  if (opts.trustAnchors) {
    const top = certs[certs.length - 1] as X509Certificate;
    const anchors = opts.trustAnchors.map((a) => new X509Certificate(Buffer.from(a, 'base64')));
    const trusted = anchors.some(
      (a) => a.raw.equals(top.raw) || (top.checkIssued(a) && top.verify(a.publicKey)),
    );
    if (!trusted) throw new WalletError('x509_hash: the x5c chain does not end in a trusted certificate');
  }
  const key = (certs[0] as X509Certificate).publicKey;
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new WalletError('x509_hash: the leaf certificate key is not P-256, so it cannot sign ES256');
  return key;
}
