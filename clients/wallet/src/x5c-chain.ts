import { X509Certificate } from 'node:crypto';
import { WalletError } from './errors.js';

export interface X5cCheckOptions {
  /** Seconds since the epoch; now when absent. */
  now?: number;
  /**
   * Certificates (base64 DER) the chain must end in or be issued by. Absent, an `x509_hash` client
   * is anchored only by the hash in its client_id (any verifier with a self-signed certificate is
   * accepted, which suits tests and closed deployments) and an `x509_san_dns` client is refused, as
   * its name means nothing without a trusted chain; a wallet in the open passes its trust list here.
   */
  trustAnchors?: string[];
}

/**
 * Parses the `x5c` header of a Request Object (standard base64 DER, leaf first, RFC 7515 section
 * 4.1.6) and checks it: each certificate within its validity, each issued by the next, and with
 * `trustAnchors` the last one equal to or issued by an anchor. `label` prefixes every error.
 */
export function checkX5cChain(x5c: unknown, opts: X5cCheckOptions, label: string): X509Certificate[] {
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((c) => typeof c === 'string'))
    throw new WalletError(`${label}: the request object has no x5c certificate chain`);
  let certs: X509Certificate[];
  try {
    certs = x5c.map((c: string) => {
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(c)) throw new WalletError(`${label}: an x5c entry is not base64`);
      return new X509Certificate(Buffer.from(c, 'base64'));
    });
  } catch (e) {
    if (e instanceof WalletError) throw e;
    throw new WalletError(`${label}: an x5c entry is not a DER X.509 certificate`);
  }
  const now = new Date((opts.now ?? Math.floor(Date.now() / 1000)) * 1000);
  certs.forEach((cert, i) => {
    if (cert.validFromDate > now || cert.validToDate < now)
      throw new WalletError(`${label}: certificate ${i} of x5c is not valid now`);
    const issuer = certs[i + 1];
    if (issuer && !(cert.checkIssued(issuer) && cert.verify(issuer.publicKey)))
      throw new WalletError(`${label}: certificate ${i} of x5c is not issued by the next one`);
  });
  if (opts.trustAnchors) {
    const top = certs[certs.length - 1] as X509Certificate;
    const anchors = opts.trustAnchors.map((a) => new X509Certificate(Buffer.from(a, 'base64')));
    const trusted = anchors.some(
      (a) => a.raw.equals(top.raw) || (top.checkIssued(a) && top.verify(a.publicKey)),
    );
    if (!trusted) throw new WalletError(`${label}: the x5c chain does not end in a trusted certificate`);
  }
  const key = (certs[0] as X509Certificate).publicKey;
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new WalletError(`${label}: the leaf certificate key is not P-256, so it cannot sign ES256`);
  return certs;
}
