import type { CredentialQuery } from '../../../contract/oid4vp/dcql-query.js';
import type { IssuerTrust } from './issuer-trust.js';
import { check } from './presentation-error.js';

/**
 * DCQL `trusted_authorities` of type `aki` (OID4VP 1.0 §6.1.1.1), enforced on the answer: the
 * credential matches when a certificate of its `x5c` chain has an authorityKeyIdentifier among the
 * values. The chain must be one this verifier validated to a trust anchor: certificates merely
 * attached to a credential trusted by keys prove nothing. Without `aki` entries nothing is asked
 * (the contract admits no other type). Throws `untrusted_authority`.
 */
export function checkTrustedAuthorities(query: CredentialQuery, issuer: IssuerTrust): void {
  const wanted = (query.trusted_authorities ?? []).filter((a) => a.type === 'aki').flatMap((a) => a.values);
  if (wanted.length === 0) return;
  check(
    issuer.chain,
    'untrusted_authority',
    `trusted_authorities asks for an X.509 chain with aki ${wanted.join(', ')}, but the issuer was trusted by ${issuer.trust.method}`,
  );
  const found = issuer.chain.certificates.flatMap((c) => (c.aki ? [c.aki] : []));
  check(
    found.some((aki) => wanted.includes(aki)),
    'untrusted_authority',
    `no certificate of the x5c chain has an authority key identifier among ${wanted.join(', ')} (it has ${found.join(', ') || 'none'})`,
  );
}
