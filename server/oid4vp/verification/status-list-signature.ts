import { ISSUER_SERVICE_TYPES } from '../../trust/service-types.js';
import { chainsTrusted, trustKey } from '../../trust/trust.js';
import { checkProfileX5c } from './check-haip-profile.js';
import { type IssuerTrust, verifyByChain } from './issuer-trust.js';
import { type DecodedJws, verifyWithKey, verifyWithKeys } from './jws.js';
import { PresentationError } from './presentation-error.js';
import type { Checks } from './types.js';

/** Who may sign a Status List Token: its issuer, or a service its list names as signing them. */
export const STATUS_LIST_SIGNERS = { serviceTypes: [...ISSUER_SERVICE_TYPES, 'status_list_signer'] };

/**
 * Verifies the signature of a Status List Token of the credential issuer `issuer` the ways Token
 * Status List §11.3 lists, and returns until when the trust holds (seconds; undefined: as long as
 * the keys are trusted):
 * - its own `x5c` chain to one of the tenant's anchors, or to an entity its trust sources list as
 *   an issuer or a status list signer (HAIP: Status List Tokens carry `x5c`), its leaf holding the
 *   credential's own key or naming the issuer as a credential's leaf must;
 * - the key of the credential's `x5c` leaf ("the same key as used in the Referenced Token");
 * - the issuer's trusted keys ("the same web-based key resolution").
 * A chain that fails while no other way holds is reported with its reason.
 */
export async function verifyStatusListSignature(
  jws: DecodedJws,
  issuer: string,
  trust: IssuerTrust,
  checks: Checks,
): Promise<number | undefined> {
  const what = `the status list of ${issuer}`;
  checkProfileX5c(jws, checks, what);
  let chainFailure: PresentationError | undefined;
  // HAIP 1.0 section 6.1: the token's key is in its own x5c, so under the profile that is the path.
  if (jws.header.x5c !== undefined && (chainsTrusted(checks.trust) || checks.profile)) {
    try {
      return (await verifyByChain(jws, issuer, checks, what, STATUS_LIST_SIGNERS, trust.chain)).chain
        .validUntil;
    } catch (e) {
      if (!(e instanceof PresentationError) || checks.profile) throw e;
      chainFailure = e;
    }
  }
  try {
    if (trust.chain) {
      await verifyWithKey(jws, trust.chain.leafJwk, `${what} (with the credential's x5c leaf key)`);
      return trust.chain.validUntil;
    }
    await verifyWithKeys(jws, trust.keys, what);
    return undefined;
  } catch (e) {
    if (chainFailure && e instanceof PresentationError) throw chainFailure;
    throw e;
  }
}

/** What a cached, verified list was verified against: the same token is verified again for other trust. */
export const statusTrustKey = (issuer: string, trust: IssuerTrust, checks: Checks) =>
  [
    issuer,
    JSON.stringify(trust.keys),
    trust.chain?.leaf.sha256 ?? '',
    trustKey(checks.trust),
    checks.profile ?? '',
  ].join('\n');
