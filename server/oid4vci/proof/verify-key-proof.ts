import type { JWK } from 'jose';
import { invalidProof } from '../oauth-error.js';
import { verifyEmbeddedKeyJwt } from '../wallet-jwt.js';
import { checkProofClaims } from './check-proof-claims.js';

const PROOF_TYP = 'openid4vci-proof+jwt';

export interface VerifiedProof {
  jwk: JWK;
  nonce: string;
}

/**
 * Verifies one `proofs.jwt` entry (OID4VCI 1.0 appendix F.1): `typ` openid4vci-proof+jwt, ES256,
 * signed by the holder key in its `jwk` header (not beside `kid` or `x5c`), then its claims.
 */
export async function verifyKeyProof(
  jwt: string,
  issuer: string,
  now = Math.floor(Date.now() / 1000),
): Promise<VerifiedProof> {
  const { jwk, payload } = await verifyEmbeddedKeyJwt(
    jwt,
    { typ: PROOF_TYP, what: 'proof', refuse: invalidProof, jwkAlone: true },
    new Date(now * 1000),
  );
  // Time claims are checked by checkProofClaims with this endpoint's own window.
  return { jwk, nonce: checkProofClaims(payload, issuer, now) };
}
