import type { JWTPayload } from 'jose';
import { invalidProof } from '../oauth-error.js';

/** How far a proof's `iat` may lie in the past, and in the future (clock skew). */
export const PROOF_MAX_AGE_SECONDS = 300;
export const PROOF_MAX_SKEW_SECONDS = 60;

/**
 * OID4VCI 1.0 appendix F.1 claims: `aud` is this credential issuer, `iat` is recent, `nonce` is
 * present (its freshness is checked against the store by the caller). Returns the nonce.
 */
export function checkProofClaims(payload: JWTPayload, issuer: string, now: number): string {
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(issuer)) throw invalidProof(`proof aud must be ${issuer}`);
  if (typeof payload.iat !== 'number') throw invalidProof('proof must have iat');
  if (payload.iat > now + PROOF_MAX_SKEW_SECONDS) throw invalidProof('proof iat is in the future');
  if (payload.iat < now - PROOF_MAX_AGE_SECONDS) throw invalidProof('proof is too old (iat)');
  if (typeof payload.nonce !== 'string' || !payload.nonce)
    throw invalidProof('proof must carry the c_nonce as nonce');
  return payload.nonce;
}
