import type { JWK } from 'jose';
import type { KeyPurpose } from './signing-key.entity.js';

export interface SignJwtOptions {
  /**
   * Adds the key's certificate chain as `x5c` (leaf first, trust anchor left out, as HAIP asks),
   * taken together with the key so a concurrent rotation cannot pair one key's chain with another's
   * signature.
   */
  x5c?: boolean;
}

/**
 * Signs with ES256 (P-256) keys that it never hands out. The local implementation keeps keys
 * encrypted in PostgreSQL; a KMS or HSM implementation can take its place behind this interface.
 */
export interface Signer {
  /** A compact JWS over `payload`, with `alg` and `kid` of the purpose's active key added to `header`. */
  signJwt(
    purpose: KeyPurpose,
    header: Record<string, unknown>,
    payload: Record<string, unknown>,
    options?: SignJwtOptions,
  ): Promise<string>;
  /**
   * A raw ES256 signature (IEEE P1363, r||s) for libraries that build the JWS themselves. `kid` pins
   * the key named in a header written before signing; it must be a current key of the purpose.
   */
  sign(purpose: KeyPurpose, data: Uint8Array, kid?: string): Promise<{ kid: string; signature: Uint8Array }>;
  /** The kid that `sign` and `signJwt` use for the purpose right now. */
  activeKid(purpose: KeyPurpose): Promise<string>;
  /** Public keys that verifiers should accept for the purpose: the active one and those retiring. */
  publicJwks(purpose: KeyPurpose): Promise<JWK[]>;
  /**
   * The X.509 chain (base64 DER, leaf first, without the trust anchor) of the purpose's active key,
   * or of the current key `kid`, for `x5c` headers. With the local store: the chain an operator
   * imported, else a leaf of the deployment's development CA.
   */
  certificateChain(purpose: KeyPurpose, kid?: string): Promise<string[]>;
}
