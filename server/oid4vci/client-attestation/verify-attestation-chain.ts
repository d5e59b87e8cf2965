import { type KeyObject, X509Certificate } from 'node:crypto';
import { invalidClient } from './client-attestation-errors.js';

const MAX_CHAIN = 5;

const parse = (entry: unknown, i: number) => {
  if (typeof entry !== 'string') throw invalidClient(`attestation x5c entry ${i} is not a string`);
  try {
    return new X509Certificate(Buffer.from(entry, 'base64'));
  } catch {
    throw invalidClient(`attestation x5c entry ${i} is not a DER X.509 certificate`);
  }
};

const selfSigned = (c: X509Certificate) => c.checkIssued(c) && c.verify(c.publicKey);

/**
 * The wallet provider's key from a client attestation's `x5c` (HAIP, Wallet Attestation): leaf
 * first, each certificate valid now and signed by the next, which is a CA, none self-signed (the
 * trust anchor is left out), and the last one signed by one of the operator's trusted roots.
 */
export function verifyAttestationChain(
  x5c: unknown,
  anchors: X509Certificate[],
  now = new Date(),
): KeyObject {
  if (!Array.isArray(x5c) || x5c.length === 0) throw invalidClient('the client attestation must carry x5c');
  if (x5c.length > MAX_CHAIN)
    throw invalidClient(`attestation x5c holds more than ${MAX_CHAIN} certificates`);
  const certs = x5c.map(parse);
  for (const [i, cert] of certs.entries()) {
    if (selfSigned(cert))
      throw invalidClient(`attestation x5c certificate ${i} is self-signed; leave the trust anchor out`);
    if (cert.validFromDate > now || cert.validToDate < now)
      throw invalidClient(`attestation x5c certificate ${i} is not valid now`);
    const issuer = certs[i + 1];
    if (issuer && !(issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey)))
      throw invalidClient(`attestation x5c certificate ${i} is not issued by certificate ${i + 1}, a CA`);
  }
  const top = certs[certs.length - 1] as X509Certificate;
  const anchor = anchors.find((a) => top.checkIssued(a) && top.verify(a.publicKey));
  if (!anchor) throw invalidClient('the client attestation is not issued by a trusted wallet provider');
  if (anchor.validFromDate > now || anchor.validToDate < now)
    throw invalidClient('the wallet provider root is not valid now');
  return (certs[0] as X509Certificate).publicKey;
}
