import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { invalidProof, OAuthError } from '../oauth-error.js';
import { checkProofClaims } from './check-proof-claims.js';
import { checkProofHeader } from './check-proof-header.js';

export interface VerifiedProof {
  jwk: JWK;
  nonce: string;
}

/** Verifies one `proofs.jwt` entry: header, signature by its own `jwk`, then claims. */
export async function verifyKeyProof(
  jwt: string,
  issuer: string,
  now = Math.floor(Date.now() / 1000),
): Promise<VerifiedProof> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw invalidProof('proof is not a JWT');
  }
  const jwk = checkProofHeader(header);
  try {
    const key = await importJWK(jwk, 'ES256');
    // Time claims are checked by checkProofClaims with this endpoint's own window.
    const { payload } = await jwtVerify(jwt, key, {
      algorithms: ['ES256'],
      typ: header.typ,
      currentDate: new Date(now * 1000),
    });
    return { jwk, nonce: checkProofClaims(payload, issuer, now) };
  } catch (e) {
    if (e instanceof OAuthError) throw e;
    throw invalidProof(`proof signature does not verify: ${(e as Error).message}`);
  }
}
