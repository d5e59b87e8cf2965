import { CompactEncrypt, importJWK, type JWK } from 'jose';
import type { ClientMetadata } from './authorization-request.js';
import { WalletError } from './errors.js';

/** Key agreement algorithms this wallet encrypts with; `alg` of the verifier key must be one. */
const SUPPORTED_ALGS = ['ECDH-ES'];
const SUPPORTED_CURVES = ['P-256', 'P-384', 'P-521', 'X25519'];
/** Content encryption algorithms jose implements; the verifier's list picks among them. */
const SUPPORTED_ENCS = ['A128GCM', 'A192GCM', 'A256GCM', 'A128CBC-HS256', 'A192CBC-HS384', 'A256CBC-HS512'];
/** OID4VP §8.3: the `enc` when `encrypted_response_enc_values_supported` is absent. */
export const DEFAULT_RESPONSE_ENC = 'A128GCM';

/**
 * The verifier key to encrypt to (OID4VP §8.3): from `client_metadata.jwks`, with `use` absent or
 * `enc`, an `alg` present and supported, on a curve we can agree on. The first such key wins.
 */
export function selectEncryptionKey(metadata: ClientMetadata | undefined): JWK {
  const keys = metadata?.jwks?.keys;
  if (!Array.isArray(keys) || keys.length === 0)
    throw new WalletError('direct_post.jwt needs client_metadata.jwks, and there is none');
  const key = (keys as JWK[]).find(
    (k) =>
      (k.use === undefined || k.use === 'enc') &&
      typeof k.alg === 'string' &&
      SUPPORTED_ALGS.includes(k.alg) &&
      SUPPORTED_CURVES.includes(String(k.crv)),
  );
  if (!key)
    throw new WalletError(`client_metadata.jwks has no encryption key with alg ${SUPPORTED_ALGS.join('/')}`);
  return key;
}

/** The first `enc` of the verifier's list that we support; A128GCM when it gives none. */
export function selectContentEncryption(metadata: ClientMetadata | undefined): string {
  const offered = metadata?.encrypted_response_enc_values_supported;
  if (offered === undefined) return DEFAULT_RESPONSE_ENC;
  const enc = Array.isArray(offered) ? offered.find((e) => SUPPORTED_ENCS.includes(e)) : undefined;
  if (!enc)
    throw new WalletError(`none of the verifier's enc values ${JSON.stringify(offered)} is supported`);
  return enc;
}

/**
 * Encrypts Authorization Response parameters for `direct_post.jwt` (OID4VP §8.3, §8.3.1): an unsigned
 * JWT, i.e. a compact JWE whose plaintext is the JSON object of the parameters, with `alg` the key's
 * `alg`, `enc` as the verifier supports, and `kid` naming the key it was encrypted to.
 */
export async function encryptResponse(
  parameters: Record<string, unknown>,
  metadata: ClientMetadata | undefined,
): Promise<string> {
  const jwk = selectEncryptionKey(metadata);
  const enc = selectContentEncryption(metadata);
  const alg = jwk.alg as string;
  const key = await importJWK(jwk, alg);
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(parameters)))
    .setProtectedHeader({ alg, enc, ...(jwk.kid ? { kid: jwk.kid } : {}) })
    .encrypt(key);
}
