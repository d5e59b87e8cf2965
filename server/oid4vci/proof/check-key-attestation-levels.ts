import type { KeyAttestationsRequired } from '../../credential-configurations/credential-configuration.entity.js';
import { invalidProof } from '../oauth-error.js';
import type { VerifiedKeyAttestation } from './verify-key-attestation.js';

/**
 * The credential configuration's `key_attestations_required` (OID4VCI 1.0 section 12.2.4) against
 * what a proof brought: a key attestation must be there, and for `key_storage` and
 * `user_authentication` each, when the configuration lists accepted values, the attestation must
 * assert at least one of them. The values are compared as the case-sensitive strings they are: the
 * specification gives them no order, so a level not listed is not accepted.
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
    if (accepted && !asserted?.some((level) => (accepted as readonly string[]).includes(level)))
      throw invalidProof(
        `the key attestation's ${name} (${asserted?.join(', ') ?? 'absent'}) includes none of the accepted values: ${accepted.join(', ')}`,
      );
  }
}
