import type { JWK, ProtectedHeaderParameters } from 'jose';
import { invalidProof } from '../oauth-error.js';

export const PROOF_TYP = 'openid4vci-proof+jwt';

/**
 * OID4VCI 1.0 appendix F.1: `typ` openid4vci-proof+jwt, an asymmetric `alg` we support (ES256), and
 * the holder key as a public `jwk` (P-256), not alongside `kid` or `x5c`. Returns the public key.
 */
export function checkProofHeader(header: ProtectedHeaderParameters): JWK {
  if (header.typ !== PROOF_TYP) throw invalidProof(`proof typ must be ${PROOF_TYP}`);
  if (header.alg !== 'ES256') throw invalidProof('proof alg must be ES256');
  const jwk = header.jwk;
  if (!jwk) throw invalidProof('proof header must carry the holder key as jwk');
  if (header.kid || header.x5c) throw invalidProof('proof header must not carry kid or x5c next to jwk');
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y)
    throw invalidProof('proof jwk must be an EC P-256 key');
  if ('d' in jwk) throw invalidProof('proof jwk must be a public key');
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}
