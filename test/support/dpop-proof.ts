import { createHash, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

export interface DpopClaims {
  htm: string;
  htu: string;
  nonce?: string;
  /** The access token the proof is for: `ath` is its SHA-256. */
  accessToken?: string;
  iat?: number;
  jti?: string;
  /** Anything else in the payload (or `undefined` to drop a field). */
  extra?: Record<string, unknown>;
}

/**
 * A wallet's DPoP key and RFC 9449 proofs made with it by hand (jose, no protocol library), every
 * header field and claim overridable so that the negative tests can break exactly one thing.
 */
export async function dpopKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const jwk = { kty, crv, x, y } as JWK;
  const privateJwk = await exportJWK(privateKey);
  const payload = (c: DpopClaims) => ({
    htm: c.htm,
    htu: c.htu,
    iat: c.iat ?? Math.floor(Date.now() / 1000),
    jti: c.jti ?? randomBytes(16).toString('base64url'),
    ...(c.nonce ? { nonce: c.nonce } : {}),
    ...(c.accessToken ? { ath: createHash('sha256').update(c.accessToken).digest('base64url') } : {}),
    ...c.extra,
  });
  return {
    jwk,
    jkt: await calculateJwkThumbprint(jwk),
    proof: (c: DpopClaims, header: Record<string, unknown> = {}) =>
      new SignJWT(payload(c))
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk, ...header })
        .sign(privateKey),
    /** `alg: none`, no signature. */
    unsigned: (c: DpopClaims) => `${b64({ alg: 'none', typ: 'dpop+jwt', jwk })}.${b64(payload(c))}.`,
    /** HS256 with a secret anyone could pick. */
    hmac: (c: DpopClaims) =>
      new SignJWT(payload(c))
        .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk })
        .sign(new TextEncoder().encode('a-shared-secret-of-thirty-two-bytes')),
    /** Signed properly, but with the private key (`d`) in the header's jwk. */
    leakingPrivateKey: (c: DpopClaims) =>
      new SignJWT(payload(c))
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: privateJwk as JWK })
        .sign(privateKey),
  };
}
