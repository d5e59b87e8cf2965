import type { JWK } from 'jose';
import type { KeyAttestationsRequired } from '../../credential-configurations/credential-configuration.entity.js';
import { ecJwkThumbprint } from '../../keys/es256-jws.js';
import { invalidCredentialRequest, invalidProof } from '../oauth-error.js';
import { checkKeyAttestationLevels } from './check-key-attestation-levels.js';
import { verifyKeyAttestation } from './verify-key-attestation.js';
import { type ProofContext, verifyKeyProof } from './verify-key-proof.js';

/** The keys credentials are bound to, one credential each, and the c_nonces to spend for them. */
export interface HolderKeys {
  keys: JWK[];
  nonces: string[];
}

export interface ProofPolicy extends ProofContext {
  /** BATCH_SIZE: at most this many proofs, and credentials, per request. */
  batchSize: number;
  /** The configuration's key_attestations_required (null: none required). */
  required: KeyAttestationsRequired | null;
}

/** `first` in order, then the keys of `more` not among them yet (by RFC 7638 thumbprint), at most `max`. */
function withAttestedKeys(first: JWK[], more: JWK[], max: number): JWK[] {
  const keys = [...first];
  const seen = new Set(first.map(ecJwkThumbprint));
  for (const key of more) {
    if (keys.length >= max) break;
    const thumbprint = ecJwkThumbprint(key);
    if (!seen.has(thumbprint)) keys.push(key);
    seen.add(thumbprint);
  }
  return keys;
}

/**
 * The credential request's `proofs` (OID4VCI 1.0 section 8.2, appendix F), verified: `jwt` proofs,
 * each with an optional key attestation in its header, or the `attestation` proof type, exactly one
 * key attestation whose keys need no proof of possession and which must then carry a c_nonce.
 * Either way the issuer issues a credential for each attested key (appendix F.1 and F.3, SHOULD),
 * the proven keys first, up to the batch size. Nothing is spent here.
 */
export async function holderKeys(
  proofs: { jwt?: string[]; attestation?: string[] } | undefined,
  policy: ProofPolicy,
  now = Math.floor(Date.now() / 1000),
): Promise<HolderKeys> {
  if (proofs?.attestation !== undefined) {
    const [jwt, ...more] = proofs.attestation;
    if (jwt === undefined || more.length)
      throw invalidProof('proofs.attestation must hold exactly one key attestation');
    const attestation = await verifyKeyAttestation(jwt, policy.walletProviders, 'attestation', now);
    if (!attestation.nonce)
      throw invalidProof(
        'a key attestation sent as the attestation proof type must carry the c_nonce as nonce',
      );
    checkKeyAttestationLevels(policy.required, attestation);
    return {
      keys: withAttestedKeys([], attestation.attestedKeys, policy.batchSize),
      nonces: [attestation.nonce],
    };
  }
  const jwts = proofs?.jwt;
  if (!jwts?.length) throw invalidProof('proofs.jwt or proofs.attestation with a key proof is required');
  if (jwts.length > policy.batchSize)
    throw invalidCredentialRequest(`at most ${policy.batchSize} proofs per request`);
  const context = { ...policy, attestations: new Map() };
  const verified = await Promise.all(jwts.map((jwt) => verifyKeyProof(jwt, context, now)));
  for (const proof of verified) checkKeyAttestationLevels(policy.required, proof.attestation);
  return {
    keys: withAttestedKeys(
      verified.map((p) => p.jwk),
      verified.flatMap((p) => p.attestation?.attestedKeys ?? []),
      policy.batchSize,
    ),
    // A key attestation's own nonce, when it has one, must be a fresh c_nonce too (appendix F.1).
    nonces: verified.flatMap((p) => [p.nonce, ...(p.attestation?.nonce ? [p.attestation.nonce] : [])]),
  };
}
