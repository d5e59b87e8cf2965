import type { KeyAttestationsRequired } from '../../credential-configurations/credential-configuration.entity.js';
import { invalidProof } from '../oauth-error.js';
import type { VerifiedKeyAttestation } from './verify-key-attestation.js';

/** The ISO/IEC 18045 attack potentials of appendix D.2, weakest first (VAN.2 to VAN.5). */
const ISO_18045 = ['iso_18045_basic', 'iso_18045_enhanced-basic', 'iso_18045_moderate', 'iso_18045_high'];

/**
 * `asserted` meets `accepted`: the same value, or a higher ISO 18045 level than an accepted one (a
 * key resisting attackers of High potential resists Moderate ones too, and appendix D.2 has the
 * wallet assert only the level it reaches). Other values, an ecosystem's URLs, match exactly.
 */
function meets(asserted: string, accepted: string): boolean {
  if (asserted === accepted) return true;
  const [a, b] = [ISO_18045.indexOf(asserted), ISO_18045.indexOf(accepted)];
  return a >= 0 && b >= 0 && a >= b;
}

/**
 * The credential configuration's `key_attestations_required` (OID4VCI 1.0 section 12.2.4) against
 * what a proof brought: a key attestation must be there, and for `key_storage` and
 * `user_authentication` each, when the configuration lists accepted values, the attestation must
 * assert one that meets one of them.
 */
export function checkKeyAttestationLevels(
  required: KeyAttestationsRequired | null,
  attestation: VerifiedKeyAttestation | undefined,
): void {
  if (!required) return;
  if (!attestation)
    throw invalidProof(
      'this credential configuration requires a key attestation: send it in the key_attestation header of the jwt proof, or as the attestation proof type',
    );
  const pairs = [
    ['key_storage', required.key_storage, attestation.keyStorage],
    ['user_authentication', required.user_authentication, attestation.userAuthentication],
  ] as const;
  for (const [name, accepted, asserted] of pairs) {
    if (accepted && !asserted?.some((level) => accepted.some((ok) => meets(level, ok))))
      throw invalidProof(
        `the key attestation's ${name} (${asserted?.join(', ') ?? 'absent'}) meets none of the accepted values: ${accepted.join(', ')}`,
      );
  }
}
