import type { JWK } from 'jose';
import type { KeyPurpose } from './signing-key.entity.js';

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
   * The X.509 chain (base64 DER, leaf first) of the purpose's active key, for `x5c` headers; with the
   * local store, a self-signed certificate made once per key.
   */
  certificateChain(purpose: KeyPurpose): Promise<string[]>;
}
