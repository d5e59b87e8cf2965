import type { X509Certificate } from 'node:crypto';
import { decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import { OAuthError } from '../oauth-error.js';
import { invalidClient } from './client-attestation-errors.js';
import { verifyAttestationChain } from './verify-attestation-chain.js';

export const ATTESTATION_TYP = 'oauth-client-attestation+jwt';
/** Allowed clock skew on the attestation's `exp` and `iat`. */
const SKEW_SECONDS = 60;

export interface VerifiedAttestation {
  /** The client_id of the wallet (shared by all instances of that wallet, HAIP). */
  sub: string;
  /** The wallet instance's key, which signs the PoP. */
  cnfJwk: JWK;
}

/**
 * The Client Attestation JWT (draft-ietf-oauth-attestation-based-client-auth section 5.1): typ,
 * ES256, signed by the leaf of an `x5c` chain to a trusted wallet provider root, `sub` and `exp`
 * present and unexpired, `cnf.jwk` a public EC P-256 key.
 */
export async function verifyClientAttestation(
  jwt: string,
  anchors: X509Certificate[],
  now = Date.now(),
): Promise<VerifiedAttestation> {
  if (!anchors.length)
    throw invalidClient('this issuer trusts no wallet provider yet (WALLET_PROVIDER_TRUST_ANCHORS)');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw invalidClient('OAuth-Client-Attestation is not a JWT');
  }
  if (header.typ !== ATTESTATION_TYP)
    throw invalidClient(`client attestation typ must be ${ATTESTATION_TYP}`);
  if (header.alg !== 'ES256') throw invalidClient('client attestation alg must be ES256');
  const key = verifyAttestationChain(header.x5c, anchors, new Date(now));
  try {
    const { payload } = await jwtVerify(jwt, key, {
      algorithms: ['ES256'],
      typ: ATTESTATION_TYP,
      requiredClaims: ['sub', 'exp'],
      clockTolerance: SKEW_SECONDS,
      currentDate: new Date(now),
    });
    if (typeof payload.sub !== 'string' || !payload.sub)
      throw invalidClient('client attestation sub is missing');
    const jwk = (payload.cnf as { jwk?: JWK } | undefined)?.jwk;
    if (!jwk || typeof jwk !== 'object' || 'd' in jwk)
      throw invalidClient('client attestation cnf.jwk must be a public key');
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string')
      throw invalidClient('client attestation cnf.jwk must be an EC P-256 key');
    return { sub: payload.sub, cnfJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } };
  } catch (e) {
    if (e instanceof OAuthError) throw e;
    throw invalidClient(`client attestation does not verify: ${(e as Error).message}`);
  }
}
