import type { JWK } from 'jose';
import { ChainError, check, reject } from './chain-error.js';
import { type Certificate, hasKeyUsage, KeyUsage, parseCertificate } from './x509-certificate.js';

/** Longer `x5c` chains are refused before any signature is checked. */
const MAX_CHAIN = 10;

/** An `x5c` chain that leads to one of the trust anchors (a tenant's, or the wallet providers'). */
export interface ValidatedChain {
  /** The certificates as presented, leaf first, without a trailing copy of the anchor. */
  certificates: Certificate[];
  leaf: Certificate;
  /** The leaf's public key: the key the signed object must verify with. */
  leafJwk: JWK;
  anchor: Certificate;
  /** Seconds: the first moment a certificate of the chain (or its anchor) stops being valid. */
  validUntil: number;
}

/** The time checks, seconds since the epoch, with the tolerated clock skew. */
export interface ChainTime {
  now: number;
  skewSeconds: number;
}

/**
 * What a copy of a trust anchor inside `x5c` gets. HAIP 1.0 says the anchor's certificate MUST NOT
 * be in the x5c of anything it profiles; the verifier drops a trailing copy of it from a presented
 * credential's chain (a harmless variant of issuers we do not control), while the issuer refuses it
 * in the wallet and key attestations it checks itself (HAIP's Wallet Attestation: "excluding the trust
 * anchor"; Key Attestation: "MUST NOT be included").
 */
export type AnchorInX5c = 'dropped' | 'refused';

const named = (cert: Certificate, i: number) => `certificate ${i} of x5c (${cert.subject})`;

function checkValidity(cert: Certificate, what: string, t: ChainTime) {
  check(cert.notAfter >= t.now - t.skewSeconds, 'certificate_expired', `${what} has expired`);
  check(cert.notBefore <= t.now + t.skewSeconds, 'certificate_not_yet_valid', `${what} is not valid yet`);
  check(
    cert.unknownCritical.length === 0,
    'certificate_invalid',
    `${what} has critical extensions this verifier does not process: ${cert.unknownCritical.join(', ')}`,
  );
}

/**
 * `issuer` may certify `cert` (RFC 5280 §6.1.4): it is a CA (basicConstraints cA), may sign
 * certificates (keyUsage keyCertSign when keyUsage is present), allows `below` CA certificates
 * beneath it (pathLenConstraint), is named as the issuer, and its key verifies the signature.
 */
function checkIssued(
  cert: Certificate,
  what: string,
  issuer: Certificate,
  issuerWhat: string,
  below: number,
) {
  check(
    issuer.ca === true,
    'certificate_invalid',
    `${issuerWhat} is not a CA (basicConstraints cA is not set)`,
  );
  check(
    hasKeyUsage(issuer, KeyUsage.keyCertSign),
    'certificate_invalid',
    `${issuerWhat} may not sign certificates (keyUsage lacks keyCertSign)`,
  );
  check(
    issuer.pathLength === undefined || below <= issuer.pathLength,
    'certificate_invalid',
    `${issuerWhat} allows ${issuer.pathLength} CA certificates below it, the chain has ${below}`,
  );
  check(cert.node.checkIssued(issuer.node), 'certificate_invalid', `${what} is not issued by ${issuerWhat}`);
  check(
    cert.node.verify(issuer.node.publicKey),
    'certificate_invalid',
    `the signature of ${what} does not verify with the key of ${issuerWhat}`,
  );
}

const selfSigned = (cert: Certificate) =>
  cert.node.checkIssued(cert.node) && cert.node.verify(cert.node.publicKey);

/**
 * Validates an `x5c` header (RFC 7515 §4.1.6: standard base64 DER, leaf first) against the trust
 * anchors: each certificate within its validity and issued by the next, the last by an anchor; CA
 * certificates with basicConstraints cA, keyCertSign and room in their path length; the leaf allowed
 * digitalSignature and not self-signed (HAIP: the signing certificate is never the anchor itself).
 * A trailing copy of the anchor is dropped, or refused (`anchorInX5c`). Throws a ChainError whose
 * code says which kind of failure (`certificate_untrusted` when no anchor issued the chain).
 */
export function validateChain(
  x5c: unknown,
  anchors: readonly Certificate[],
  t: ChainTime,
  anchorInX5c: AnchorInX5c = 'dropped',
): ValidatedChain {
  check(
    Array.isArray(x5c) && x5c.length > 0 && x5c.length <= MAX_CHAIN,
    'certificate_invalid',
    `x5c is not an array of 1 to ${MAX_CHAIN} certificates`,
  );
  let certificates = x5c.map((entry, i) => {
    check(typeof entry === 'string', 'certificate_invalid', `x5c entry ${i} is not a string`);
    try {
      return parseCertificate(entry, `x5c entry ${i}`);
    } catch (e) {
      return reject('certificate_invalid', (e as Error).message);
    }
  });
  const isAnchor = (cert: Certificate) => anchors.some((a) => a.sha256 === cert.sha256);
  if (anchorInX5c === 'refused') {
    const i = certificates.findIndex(isAnchor);
    const what = i < 0 ? '' : named(certificates[i] as Certificate, i);
    check(
      i < 0,
      'certificate_invalid',
      `${what} is the trust anchor itself, which must not be included in x5c (HAIP 1.0)`,
    );
  }
  const last = certificates[certificates.length - 1] as Certificate;
  if (certificates.length > 1 && isAnchor(last)) certificates = certificates.slice(0, -1);
  const leaf = certificates[0] as Certificate;
  check(
    !selfSigned(leaf),
    'certificate_invalid',
    `the leaf certificate (${leaf.subject}) is self-signed${isAnchor(leaf) ? ': it is the trust anchor itself, which may not sign credentials' : ''}`,
  );
  check(
    hasKeyUsage(leaf, KeyUsage.digitalSignature),
    'certificate_invalid',
    `the leaf certificate (${leaf.subject}) may not sign (keyUsage lacks digitalSignature)`,
  );
  for (const [i, cert] of certificates.entries()) {
    checkValidity(cert, named(cert, i), t);
    const issuer = certificates[i + 1];
    if (issuer) checkIssued(cert, named(cert, i), issuer, named(issuer, i + 1), i);
  }
  const top = certificates[certificates.length - 1] as Certificate;
  const topWhat = named(top, certificates.length - 1);
  const candidates = anchors.filter((a) => top.node.checkIssued(a.node));
  const failures: ChainError[] = [];
  for (const anchor of candidates) {
    try {
      const what = `the trust anchor ${anchor.subject}`;
      checkValidity(anchor, what, t);
      checkIssued(top, topWhat, anchor, what, certificates.length - 1);
      const validUntil = Math.min(anchor.notAfter, ...certificates.map((c) => c.notAfter));
      const leafJwk = leaf.node.publicKey.export({ format: 'jwk' }) as JWK;
      return { certificates, leaf, leafJwk, anchor, validUntil };
    } catch (e) {
      if (!(e instanceof ChainError)) throw e;
      failures.push(e);
    }
  }
  // An anchor of that name that fails a check says more than "untrusted" would.
  if (failures[0]) throw failures[0];
  return reject(
    'certificate_untrusted',
    selfSigned(top)
      ? `the x5c chain ends at ${top.subject}, which is not a trust anchor of this tenant`
      : `the x5c chain leads to ${top.node.issuer.replaceAll('\n', ', ')}, which is not a trust anchor of this tenant`,
  );
}
