import type { JWK } from 'jose';
import { ecJwkThumbprint } from '../../keys/es256-jws.js';
import type { Trust } from '../../trust/trust.js';
import { invalidProof } from '../oauth-error.js';
import { verifyEmbeddedKeyJwt } from '../wallet-jwt.js';
import { checkProofClaims } from './check-proof-claims.js';
import { type VerifiedKeyAttestation, verifyKeyAttestation } from './verify-key-attestation.js';

const PROOF_TYP = 'openid4vci-proof+jwt';

export interface VerifiedProof {
  jwk: JWK;
  nonce: string;
  /** The `key_attestation` header's attestation, verified; the proof key is one of its keys. */
  attestation?: VerifiedKeyAttestation;
}

/** Where a proof is checked: this issuer, and the wallet providers its key attestations chain to. */
export interface ProofContext {
  issuer: string;
  /** The deployment's wallet providers (walletProviderTrust). */
  walletProviders: Trust;
  /**
   * The request's key attestations by their JWT, each verified once: a batch's proofs usually carry
   * the same one (it attests all their keys), and its chain and signature need checking only once.
   */
  attestations?: Map<string, Promise<VerifiedKeyAttestation>>;
}

/**
 * Verifies one `proofs.jwt` entry (OID4VCI 1.0 appendix F.1): `typ` openid4vci-proof+jwt, ES256,
 * signed by the holder key in its `jwk` header (not beside `kid` or `x5c`), then its claims. A
 * `key_attestation` header (appendix D.1) is verified, and the proof must be signed by one of the
 * keys it attests.
 */
export async function verifyKeyProof(
  jwt: string,
  ctx: ProofContext,
  now = Math.floor(Date.now() / 1000),
): Promise<VerifiedProof> {
  const { jwk, header, payload } = await verifyEmbeddedKeyJwt(
    jwt,
    { typ: PROOF_TYP, what: 'proof', refuse: invalidProof, jwkAlone: true },
    new Date(now * 1000),
  );
  // Time claims are checked by checkProofClaims with this endpoint's own window.
  const nonce = checkProofClaims(payload, ctx.issuer, now);
  if (header.key_attestation === undefined) return { jwk, nonce };
  if (typeof header.key_attestation !== 'string')
    throw invalidProof('proof key_attestation must be a key attestation JWT');
  const jwtAttestation = header.key_attestation;
  let verifying = ctx.attestations?.get(jwtAttestation);
  if (!verifying) {
    verifying = verifyKeyAttestation(jwtAttestation, ctx.walletProviders, 'jwt', now);
    ctx.attestations?.set(jwtAttestation, verifying);
  }
  const attestation = await verifying;
  const thumbprint = ecJwkThumbprint(jwk);
  if (!attestation.attestedKeys.some((k) => ecJwkThumbprint(k) === thumbprint))
    throw invalidProof('the proof is not signed by a key of its key attestation (attested_keys)');
  return { jwk, nonce, attestation };
}
