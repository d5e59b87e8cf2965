import { createHash, X509Certificate } from 'node:crypto';
import { flattenedVerify } from 'jose';
import { TrustListError } from '../read-list.js';
import { checkLoteSignatureHeader } from './jades-header.js';
import { decodeJsonSegment, type JwsEnvelope } from './jws-envelope.js';

/**
 * Verifies a LoTE's signature against the pinned signing certificates: the signer the header names must
 * be one of them (by the SHA-256 of its DER), and the signature must verify with that certificate's
 * key. No chain is built and no CA is trusted: a LoTE is trusted because its operator's own certificate
 * was pinned out of band, as TS 119 612 pins the certificates of a LOTL's signers.
 */

export interface VerifiedLote {
  /** The signed payload, as its bytes. */
  payload: Uint8Array;
  /** SHA-256 (hex) of the pinned certificate that signed it. */
  signedBy: string;
}

const sha256Hex = (der: Buffer) => createHash('sha256').update(der).digest('hex');

/** Pinned certificates by the SHA-256 of their DER; whitespace in the base64 is tolerated here only. */
function pinnedBySha256(pinned: readonly string[]): Map<string, Buffer> {
  const byDigest = new Map<string, Buffer>();
  for (const base64 of pinned) {
    const der = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
    if (der.length > 0) byDigest.set(sha256Hex(der), der);
  }
  return byDigest;
}

function signingCertificate(der: Buffer, now: Date): X509Certificate {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(der);
  } catch {
    throw new TrustListError('signature_invalid', 'the signing certificate is not an X.509 certificate');
  }
  // A pinned certificate is still a certificate: past its validity, what it signs is not taken.
  if (now < certificate.validFromDate || now > certificate.validToDate) {
    throw new TrustListError('signature_invalid', 'the signing certificate is not valid now');
  }
  return certificate;
}

export async function verifyPinnedSignature(
  envelope: JwsEnvelope,
  pinned: readonly string[],
  now: Date,
): Promise<VerifiedLote> {
  const header = checkLoteSignatureHeader(decodeJsonSegment(envelope.protected, 'protected header'));
  const pinnedDer = pinnedBySha256(pinned).get(header.signer);
  if (!pinnedDer) {
    throw new TrustListError('signer_not_pinned', 'the list is signed by a certificate that is not pinned');
  }
  const certificate = signingCertificate(pinnedDer, now);
  try {
    // jose checks the algorithm against the key (curve, RSA size), the critical headers again (it also
    // knows `b64`, refused earlier), that the unprotected header does not repeat a protected one, and
    // the signature over exactly the protected header and payload characters as published.
    const { payload } = await flattenedVerify(envelope, certificate.publicKey, {
      algorithms: [header.alg],
      crit: { sigT: true },
    });
    return { payload, signedBy: header.signer };
  } catch (e) {
    throw new TrustListError(
      'signature_invalid',
      `the list signature does not verify (${(e as Error).message})`,
    );
  }
}
