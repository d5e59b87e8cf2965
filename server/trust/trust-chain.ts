import { ChainError, check, reject } from '../keys/chain-error.js';
import { type Certificate, hasKeyUsage, KeyUsage } from '../keys/x509-certificate.js';
import { type AnchorInX5c, type ChainTime, type ValidatedChain, validateChain } from '../keys/x509-chain.js';
import type { CredentialTrust } from '../verification/issuer-trust.js';
import {
  type ListedCertificate,
  parsedCertificate,
  type Trust,
  type TrustPurpose,
  vouchesFor,
} from './trust.js';

/** A chain that validated, and the trust path that accepted it. */
export interface TrustedChain {
  chain: ValidatedChain;
  trust: CredentialTrust;
}

const listedTrust = (l: ListedCertificate): CredentialTrust => ({
  method: 'trusted_list',
  source: l.source,
  entity: l.entity,
  serviceType: l.serviceType,
});

/**
 * The one place an `x5c` chain is trusted: by the tenant's static anchors first, else by a
 * certificate one of its trust sources lists for `purpose` (its service type and, for a
 * credential, its type). A listed CA certificate anchors the chain like a static anchor; a listed
 * end-entity certificate (lists often name the signing certificate itself) is trusted when it is
 * the chain's leaf. Throws the ChainError that says most: a broken chain's own reason, else
 * `certificate_untrusted`, naming a source that lists the chain but not for this purpose.
 */
export function trustChain(
  x5c: unknown,
  trust: Trust,
  purpose: TrustPurpose,
  t: ChainTime,
  anchorInX5c: AnchorInX5c = 'dropped',
): TrustedChain {
  let failure: ChainError | undefined;
  if (trust.anchors.length > 0) {
    try {
      const chain = validateChain(x5c, trust.anchors, t, anchorInX5c);
      return {
        chain,
        trust: { method: 'x509', anchor: chain.anchor.sha256, anchorSubject: chain.anchor.subject },
      };
    } catch (e) {
      if (!(e instanceof ChainError)) throw e;
      failure = e;
    }
  }
  const vouching = trust.listed.filter((l) => vouchesFor(l, purpose));
  if (vouching.length > 0) {
    const leaf = Array.isArray(x5c) && typeof x5c[0] === 'string' ? parsedCertificate(x5c[0]) : null;
    const direct = leaf && vouching.find((l) => l.certificate.sha256 === leaf.sha256);
    if (direct && leaf) return { chain: listedLeaf(leaf, x5c as string[], t), trust: listedTrust(direct) };
    const cas = vouching.filter((l) => l.certificate.ca === true);
    if (cas.length > 0) {
      try {
        const chain = validateChain(x5c, unique(cas.map((l) => l.certificate)), t, anchorInX5c);
        const by = cas.find((l) => l.certificate.sha256 === chain.anchor.sha256) as ListedCertificate;
        return { chain, trust: listedTrust(by) };
      } catch (e) {
        if (!(e instanceof ChainError)) throw e;
        if (!failure || failure.code === 'certificate_untrusted') failure = e;
      }
    }
  }
  if (failure && failure.code !== 'certificate_untrusted') throw failure;
  const elsewhere = listedForOtherPurpose(x5c, trust, purpose);
  if (elsewhere)
    reject(
      'certificate_untrusted',
      `the x5c chain is listed by trust source ${elsewhere.source} (${elsewhere.entity}) as ${elsewhere.serviceType}, which does not vouch for ${purposeName(purpose)}`,
    );
  throw (
    failure ??
    new ChainError(
      'certificate_untrusted',
      'the x5c chain leads to no trust anchor or listed entity of this tenant',
    )
  );
}

const unique = (certs: Certificate[]) => [...new Map(certs.map((c) => [c.sha256, c])).values()];

const purposeName = (p: TrustPurpose) =>
  p.vct ? `vct ${p.vct}` : p.doctype ? `doctype ${p.doctype}` : p.serviceTypes.join(' or ');

/** A listed end-entity certificate presented as the leaf: within its validity and allowed to sign. */
function listedLeaf(leaf: Certificate, x5c: string[], t: ChainTime): ValidatedChain {
  check(
    leaf.notAfter >= t.now - t.skewSeconds,
    'certificate_expired',
    `the leaf certificate (${leaf.subject}) has expired`,
  );
  check(
    leaf.notBefore <= t.now + t.skewSeconds,
    'certificate_not_yet_valid',
    `the leaf certificate (${leaf.subject}) is not valid yet`,
  );
  check(
    hasKeyUsage(leaf, KeyUsage.digitalSignature),
    'certificate_invalid',
    `the leaf certificate (${leaf.subject}) may not sign (keyUsage lacks digitalSignature)`,
  );
  check(x5c.length <= 10, 'certificate_invalid', 'x5c has more than 10 certificates');
  const leafJwk = leaf.node.publicKey.export({ format: 'jwk' });
  return { certificates: [leaf], leaf, leafJwk, anchor: leaf, validUntil: leaf.notAfter };
}

/** A listed certificate the chain starts at or leads to, listed for something other than `purpose`. */
function listedForOtherPurpose(x5c: unknown, trust: Trust, purpose: TrustPurpose) {
  if (!Array.isArray(x5c)) return undefined;
  const inChain = new Set(
    x5c.flatMap((der) => {
      const cert = typeof der === 'string' ? parsedCertificate(der) : null;
      return cert ? [cert.sha256] : [];
    }),
  );
  const top = typeof x5c.at(-1) === 'string' ? parsedCertificate(x5c.at(-1) as string) : null;
  return trust.listed.find(
    (l) =>
      !vouchesFor(l, purpose) &&
      (inChain.has(l.certificate.sha256) || top?.node.checkIssued(l.certificate.node) === true),
  );
}
