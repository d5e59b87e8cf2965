import type { EntityManager } from '@mikro-orm/postgresql';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { OAuthError } from '../oauth-error.js';
import { checkDpopClaims, type DpopRequest } from './check-dpop-claims.js';
import { checkDpopHeader, DPOP_ALGORITHMS, DPOP_TYP } from './check-dpop-header.js';
import { invalidDpopProof, useDpopNonce } from './dpop-errors.js';
import type { DpopNonces } from './dpop-nonce.js';
import { useJtiOnce } from './proof-jti.js';

export interface VerifiedDpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key: the token's `cnf.jkt`. */
  jkt: string;
  jti: string;
}

/**
 * RFC 9449 section 4.3: the one `DPoP` header of a request (undefined when there is none) checked
 * completely, signature by its own `jwk` included, and its `nonce` one of ours (else
 * use_dpop_nonce with a fresh one). Nothing is written: `useDpopProof` spends the jti once the
 * caller's own checks have passed too.
 */
export async function verifyDpopProof(
  headers: string[] | undefined,
  request: DpopRequest,
  nonces: DpopNonces,
  now = Date.now(),
): Promise<VerifiedDpopProof | undefined> {
  if (!headers?.length) return undefined;
  if (headers.length > 1) throw invalidDpopProof('send exactly one DPoP header');
  const proof = headers[0] as string;
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalidDpopProof('the DPoP header is not a JWT');
  }
  const jwk = checkDpopHeader(header);
  try {
    const { payload } = await jwtVerify(proof, await importJWK(jwk, 'ES256'), {
      algorithms: DPOP_ALGORITHMS,
      typ: DPOP_TYP,
      currentDate: new Date(now),
    });
    const jti = checkDpopClaims(payload, request, Math.floor(now / 1000));
    if (typeof payload.nonce !== 'string' || !nonces.isFresh(payload.nonce, now))
      throw useDpopNonce(nonces.current(now));
    return { jkt: await calculateJwkThumbprint(jwk, 'sha256'), jti };
  } catch (e) {
    if (e instanceof OAuthError) throw e;
    throw invalidDpopProof(`DPoP proof does not verify: ${(e as Error).message}`);
  }
}

/** Spends the proof's `jti`: a proof seen before (on any node) is invalid_dpop_proof. */
export async function useDpopProof(em: EntityManager, proof: VerifiedDpopProof): Promise<void> {
  if (!(await useJtiOnce(em, `dpop:${proof.jkt}`, proof.jti)))
    throw invalidDpopProof('this DPoP proof was used before (jti); make a new one for each request');
}
