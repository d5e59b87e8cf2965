import { base64url } from 'jose';
import type { HolderCrypto, HolderKey } from './holder-crypto.js';

export const PROOF_JWT_TYP = 'openid4vci-proof+jwt';

export interface ProofJwtInput {
  key: HolderKey;
  /** The Credential Issuer Identifier. */
  audience: string;
  /** The `c_nonce`; required when the issuer has a nonce endpoint. */
  nonce?: string;
  /** Seconds since the epoch; now when absent. */
  issuedAt?: number;
}

const encodeJson = (v: unknown) => base64url.encode(JSON.stringify(v));

/**
 * A `jwt` key proof (OID4VCI Appendix F.1): `typ` openid4vci-proof+jwt, the public key in `jwk`,
 * `aud` the issuer, `iat`, and `nonce`. No `iss`: with an anonymous pre-authorized token it must be
 * omitted. The JWS is assembled here so that HolderCrypto only has to sign bytes.
 */
export async function createProofJwt(input: ProofJwtInput, crypto: HolderCrypto): Promise<string> {
  const header = { typ: PROOF_JWT_TYP, alg: input.key.alg, jwk: input.key.publicJwk };
  const payload = {
    aud: input.audience,
    iat: input.issuedAt ?? Math.floor(Date.now() / 1000),
    ...(input.nonce !== undefined ? { nonce: input.nonce } : {}),
  };
  const signingInput = `${encodeJson(header)}.${encodeJson(payload)}`;
  const signature = await crypto.sign(input.key.id, new TextEncoder().encode(signingInput));
  return `${signingInput}.${base64url.encode(signature)}`;
}
