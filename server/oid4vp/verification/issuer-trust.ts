import type { JWK } from 'jose';
import { ChainError } from '../../keys/chain-error.js';
import type { ValidatedChain } from '../../keys/x509-chain.js';
import { chainsTrusted, type TrustPurpose } from '../../trust/trust.js';
import { type TrustedChain, trustChain } from '../../trust/trust-chain.js';
import { checkProfileX5c } from './check-haip-profile.js';
import { type DecodedJws, verifyWithKey, verifyWithKeys } from './jws.js';
import { PresentationError } from './presentation-error.js';
import { trustedIssuerKeys } from './resolve-issuer-keys.js';
import type { Checks, CredentialTrust } from './types.js';
import { checkIssuerName } from './x509-issuer-name.js';

/** A credential's issuer signature, verified, and what it was verified with. */
export interface IssuerTrust {
  trust: CredentialTrust;
  /** The issuer's keys (key path), for its Status List Token. */
  keys: JWK[];
  /** x509: the chain that validated; its leaf key may sign the Status List Token too. */
  chain?: ValidatedChain;
}

/** trustChain under the tenant's trust, its failure as the PresentationError of the same code (the codes are shared). */
function presentedChain(x5c: unknown, checks: Checks, purpose: TrustPurpose): TrustedChain {
  try {
    return trustChain(x5c, checks.trust, purpose, { now: checks.now, skewSeconds: checks.skewSeconds });
  } catch (e) {
    if (e instanceof ChainError) throw new PresentationError(e.code, e.message);
    throw e;
  }
}

/**
 * The X.509 path (SD-JWT VC, inline X.509 certificates): the `x5c` chain is trusted for `purpose`
 * (to one of the tenant's anchors, or to an entity its trust sources list), its leaf names `iss`,
 * and the JWS verifies with the leaf's key. A leaf holding the key of `credentialChain`'s leaf (a
 * Status List Token signed with the credential's own key) need not name `iss`.
 */
export async function verifyByChain(
  jws: DecodedJws,
  iss: string,
  checks: Checks,
  what: string,
  purpose: TrustPurpose,
  credentialChain?: ValidatedChain,
): Promise<TrustedChain> {
  const trusted = presentedChain(jws.header.x5c, checks, purpose);
  const { chain } = trusted;
  const credentialKey = credentialChain?.leaf.node.publicKey;
  if (!credentialKey?.equals(chain.leaf.node.publicKey)) checkIssuerName(iss, chain.leaf);
  await verifyWithKey(jws, chain.leafJwk, `${what} (with the key of its x5c leaf certificate)`);
  return trusted;
}

/**
 * Verifies the issuer signature of a credential by the first trust path that holds: its `x5c` chain
 * trusted for `purpose` (when it has one and the tenant has anchors or trust sources), else the keys
 * `trustedIssuers(iss)` gives (configured `jwks`, `jwt-vc-issuer` metadata, this service's own).
 * The paths are alternatives and each is sound alone, so which one a credential takes cannot weaken
 * the other (SD-JWT VC, "Ecosystem-specific Public Key Verification Methods"). When neither holds,
 * a failed chain's reason is reported (it says more than "no key"); otherwise the key path's.
 */
export async function verifyIssuerSignature(
  jws: DecodedJws,
  iss: string,
  checks: Checks,
  what: string,
  purpose: TrustPurpose,
): Promise<IssuerTrust> {
  checkProfileX5c(jws, checks, what);
  let chainFailure: PresentationError | undefined;
  // Under a profile the chain is the only path: its failure is the answer, with the chain's reason.
  if (jws.header.x5c !== undefined && (chainsTrusted(checks.trust) || checks.profile)) {
    try {
      const { chain, trust } = await verifyByChain(jws, iss, checks, what, purpose);
      return { trust, keys: [], chain };
    } catch (e) {
      if (!(e instanceof PresentationError) || checks.profile) throw e;
      chainFailure = e;
    }
  }
  try {
    const { keys, method } = await trustedIssuerKeys(iss, checks.trustedIssuers);
    await verifyWithKeys(jws, keys, what);
    return { trust: { method }, keys };
  } catch (e) {
    if (chainFailure && e instanceof PresentationError) throw chainFailure;
    throw e;
  }
}
