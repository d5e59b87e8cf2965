import { importJWK, type JWK, jwtVerify } from 'jose';
import { OAuthError } from '../oauth-error.js';
import { walletJwtHeader } from '../wallet-jwt.js';
import { invalidClient } from './client-attestation-errors.js';

export const ATTESTATION_POP_TYP = 'oauth-client-attestation-pop+jwt';
/** How far the PoP's `iat` may lie from our clock, either way (as for DPoP proofs). */
export const POP_IAT_WINDOW_SECONDS = 60;

/**
 * The Client Attestation PoP JWT (section 5.2): typ, ES256, signed by the attestation's `cnf.jwk`,
 * `aud` this authorization server's issuer identifier, `iat` within ±60 s, a `jti`. A `challenge`
 * is not checked: this server issues none (no challenge endpoint), so replay is stopped by the jti.
 * Returns the jti, which the caller spends once every other check has passed.
 */
export async function verifyAttestationPop(
  jwt: string,
  cnfJwk: JWK,
  audience: string,
  now = Date.now(),
): Promise<string> {
  walletJwtHeader(jwt, { typ: ATTESTATION_POP_TYP, what: 'client attestation PoP', refuse: invalidClient });
  try {
    const { payload } = await jwtVerify(jwt, await importJWK(cnfJwk, 'ES256'), {
      algorithms: ['ES256'],
      typ: ATTESTATION_POP_TYP,
      audience,
      requiredClaims: ['jti', 'iat'],
      currentDate: new Date(now),
    });
    if (Math.abs((payload.iat as number) - Math.floor(now / 1000)) > POP_IAT_WINDOW_SECONDS)
      throw invalidClient(
        `client attestation PoP iat must be within ${POP_IAT_WINDOW_SECONDS} seconds of now`,
      );
    if (typeof payload.jti !== 'string' || !payload.jti || payload.jti.length > 256)
      throw invalidClient('client attestation PoP must have a jti');
    return payload.jti;
  } catch (e) {
    if (e instanceof OAuthError) throw e;
    throw invalidClient(
      `client attestation PoP does not verify with the attested key: ${(e as Error).message}`,
    );
  }
}
