import { decodeProtectedHeader, type JWK, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import { checkJwtTimes, decodeJws, es256Verifies, JwsError, p256PublicKey } from '../keys/es256-jws.js';
import type { OAuthError } from './oauth-error.js';

/** The endpoint's error for a JWT it refuses (invalid_proof, invalid_dpop_proof, invalid_client). */
export type Refuse = (description: string) => OAuthError;

/** What a wallet's JWT is, for the checks below: its `typ`, its name in messages, the error. */
export interface WalletJwtKind {
  typ: string;
  what: string;
  refuse: Refuse;
}

/**
 * The protected header of a JWT a wallet signs (key proof, DPoP proof, client attestation and its
 * PoP), decoded: `typ` the kind's and `alg` ES256, the only algorithm this issuer accepts and
 * advertises (HAIP), so never `none` or a MAC.
 */
export function walletJwtHeader(jwt: string, kind: WalletJwtKind): ProtectedHeaderParameters {
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw kind.refuse(`${kind.what} is not a JWT`);
  }
  if (header.typ !== kind.typ) throw kind.refuse(`${kind.what} typ must be ${kind.typ}`);
  if (header.alg !== 'ES256') throw kind.refuse(`${kind.what} alg must be ES256`);
  return header;
}

/**
 * A wallet's public key (holder key, DPoP key, wallet instance key): an EC P-256 JWK without a
 * private part, returned with its key members only.
 */
export function publicP256Jwk(value: unknown, what: string, refuse: Refuse): JWK {
  if (!value || typeof value !== 'object') throw refuse(`${what} must be a JWK`);
  const jwk = value as Record<string, unknown>;
  if ('d' in jwk) throw refuse(`${what} must be a public key`);
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string')
    throw refuse(`${what} must be an EC P-256 key`);
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}

/**
 * A JWT signed by the public key in its own `jwk` header (OID4VCI 1.0 appendix F.1 key proof, RFC
 * 9449 section 4.3 DPoP proof): the header checked as above, the key a public P-256 one (with
 * `jwkAlone`, not beside `kid` or `x5c`), the signature by it. Returns the key, the header (for
 * parameters such as a key proof's `key_attestation`) and the payload, whose claims, time claims
 * included, are the caller's to check.
 */
export async function verifyEmbeddedKeyJwt(
  jwt: string,
  kind: WalletJwtKind & { jwkAlone?: boolean },
  now: Date,
): Promise<{ jwk: JWK; header: ProtectedHeaderParameters; payload: JWTPayload }> {
  const header = walletJwtHeader(jwt, kind);
  if (!header.jwk) throw kind.refuse(`${kind.what} header must carry the public key as jwk`);
  if (kind.jwkAlone && (header.kid || header.x5c))
    throw kind.refuse(`${kind.what} header must not carry kid or x5c next to jwk`);
  const jwk = publicP256Jwk(header.jwk, `${kind.what} jwk`, kind.refuse);
  try {
    const jws = decodeJws(jwt);
    if (!es256Verifies(jws, p256PublicKey(jwk))) throw new JwsError('signature verification failed');
    checkJwtTimes(jws.payload, Math.floor(now.getTime() / 1000));
    return { jwk, header, payload: jws.payload as JWTPayload };
  } catch (e) {
    if (!(e instanceof JwsError)) throw e;
    throw kind.refuse(`${kind.what} signature does not verify: ${e.message}`);
  }
}
