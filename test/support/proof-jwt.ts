import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/** A holder key and OID4VCI key proofs signed with it, with any field overridable for negative tests. */
export async function holderKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return {
    jwk,
    proof: (claims: { aud: string; nonce?: string; iat?: number }, header: Record<string, unknown> = {}) =>
      new SignJWT({ ...(claims.nonce ? { nonce: claims.nonce } : {}) })
        .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: jwk as JWK, ...header })
        .setAudience(claims.aud)
        .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000))
        .sign(privateKey),
  };
}
