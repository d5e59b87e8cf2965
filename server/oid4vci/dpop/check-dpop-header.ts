import type { JWK, ProtectedHeaderParameters } from 'jose';
import { invalidDpopProof } from './dpop-errors.js';

export const DPOP_TYP = 'dpop+jwt';
/** The only proof algorithm accepted and advertised (HAIP: ES256). */
export const DPOP_ALGORITHMS = ['ES256'];

/**
 * RFC 9449 section 4.3 checks 4, 5 and 7: `typ` dpop+jwt, `alg` ES256 (so never `none` or a MAC),
 * and the public key as a bare EC P-256 `jwk` with no private part. Returns that public key.
 */
export function checkDpopHeader(header: ProtectedHeaderParameters): JWK {
  if (header.typ !== DPOP_TYP) throw invalidDpopProof(`DPoP proof typ must be ${DPOP_TYP}`);
  if (!header.alg || !DPOP_ALGORITHMS.includes(header.alg))
    throw invalidDpopProof(`DPoP proof alg must be one of ${DPOP_ALGORITHMS.join(', ')}`);
  const jwk = header.jwk;
  if (!jwk || typeof jwk !== 'object')
    throw invalidDpopProof('DPoP proof header must carry the public key as jwk');
  if ('d' in jwk) throw invalidDpopProof('DPoP proof jwk must not contain a private key');
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string')
    throw invalidDpopProof('DPoP proof jwk must be an EC P-256 public key');
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}
