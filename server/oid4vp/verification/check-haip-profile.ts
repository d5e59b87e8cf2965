import type { CredentialFormat } from '../../formats/credential-format.js';
import type { DecodedJws } from './jws.js';
import { check } from './presentation-error.js';
import type { Checks } from './types.js';

/**
 * The checks the HAIP 1.0 profile adds to a presentation's verification, when the session is under
 * it (`checks.profile`). Without a profile each is a no-op: the verifier's general rules apply.
 */

/**
 * Section 7 makes ES256 the algorithm every party supports ("at a minimum"). Under the profile this
 * verifier takes ES256 only: what every HAIP issuer and wallet can make, and nothing to negotiate.
 */
const HAIP_ALGS = ['ES256'];

/** Sections 5 and 6: the credential formats of the profile (those whose module says `haip`). */
export function checkProfileFormat(format: Pick<CredentialFormat, 'id' | 'haip'>, checks: Checks): void {
  if (!checks.profile) return;
  check(
    format.haip,
    'unsupported_format',
    `format ${format.id} is not a credential format of the HAIP 1.0 profile`,
  );
}

/**
 * Section 5.3.2: the format is `dc+sd-jwt`, and so is the credential's `typ` (SD-JWT VC); the
 * pre-2025 `vc+sd-jwt` the verifier otherwise still takes is not part of the profile.
 */
export function checkProfileTyp(jws: DecodedJws, checks: Checks): void {
  if (!checks.profile) return;
  check(
    jws.header.typ === 'dc+sd-jwt',
    'unsupported_format',
    `typ ${String(jws.header.typ)} is not dc+sd-jwt, the only SD-JWT VC typ of the HAIP 1.0 profile`,
  );
}

/** Issuer-signed JWT, KB-JWT and Status List Token are ES256 under the profile (section 7). */
export function checkProfileAlg(jws: DecodedJws, checks: Checks, what: string): void {
  if (!checks.profile) return;
  check(
    HAIP_ALGS.includes(jws.header.alg),
    'unsupported_algorithm',
    `${what} uses alg ${jws.header.alg}; the HAIP 1.0 profile accepts ${HAIP_ALGS.join(', ')} only`,
  );
}

/**
 * Sections 6.1.1 (credentials) and 6.1 (Status List Tokens): the signing key comes in `x5c`, with its
 * chain to a trust anchor. Under the profile no other trust path (configured `jwks`, `jwt-vc-issuer`
 * metadata) is taken, so a signed object without `x5c` is refused for that reason, by name.
 */
export function checkProfileX5c(jws: DecodedJws, checks: Checks, what: string): void {
  if (!checks.profile) return;
  check(
    jws.header.x5c !== undefined,
    'x5c_required',
    `${what} has no x5c header: under the HAIP 1.0 profile its issuer is trusted only by an x5c chain to a trust anchor of the tenant, not by jwks or jwt-vc-issuer metadata`,
  );
}
