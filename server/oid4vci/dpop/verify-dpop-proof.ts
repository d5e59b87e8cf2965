import type { EntityManager } from '@mikro-orm/postgresql';
import { ecJwkThumbprint } from '../../keys/es256-jws.js';
import { verifyEmbeddedKeyJwt } from '../wallet-jwt.js';
import { checkDpopClaims, type DpopRequest } from './check-dpop-claims.js';
import { invalidDpopProof, useDpopNonce } from './dpop-errors.js';
import type { DpopNonces } from './dpop-nonce.js';
import { useJtiOnce } from './proof-jti.js';

const DPOP_TYP = 'dpop+jwt';

export interface VerifiedDpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key: the token's `cnf.jkt`. */
  jkt: string;
  jti: string;
}

/**
 * RFC 9449 section 4.3: the one `DPoP` header of a request (undefined when there is none) checked
 * completely: `typ` dpop+jwt, ES256, signed by its own public P-256 `jwk` (checks 4 to 7), its
 * claims (checkDpopClaims), and its `nonce` one of ours (else use_dpop_nonce with a fresh one).
 * Nothing is written: `useDpopProof` spends the jti once the caller's own checks have passed too.
 */
export async function verifyDpopProof(
  headers: string[] | undefined,
  request: DpopRequest,
  nonces: DpopNonces,
  now = Date.now(),
): Promise<VerifiedDpopProof | undefined> {
  if (!headers?.length) return undefined;
  if (headers.length > 1) throw invalidDpopProof('send exactly one DPoP header');
  const { jwk, payload } = await verifyEmbeddedKeyJwt(
    headers[0] as string,
    { typ: DPOP_TYP, what: 'DPoP proof', refuse: invalidDpopProof },
    new Date(now),
  );
  const jti = checkDpopClaims(payload, request, Math.floor(now / 1000));
  if (typeof payload.nonce !== 'string' || !nonces.isFresh(payload.nonce, now))
    throw useDpopNonce(nonces.current(now));
  return { jkt: ecJwkThumbprint(jwk), jti };
}

/** Spends the proof's `jti`: a proof seen before (on any node) is invalid_dpop_proof. */
export async function useDpopProof(em: EntityManager, proof: VerifiedDpopProof): Promise<void> {
  if (!(await useJtiOnce(em, `dpop:${proof.jkt}`, proof.jti)))
    throw invalidDpopProof('this DPoP proof was used before (jti); make a new one for each request');
}
