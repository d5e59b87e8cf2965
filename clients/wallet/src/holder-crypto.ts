import { generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import type { JWK } from 'jose';

/** A key the wallet binds credentials to; only its public half ever leaves the crypto provider. */
export interface HolderKey {
  id: string;
  alg: 'ES256';
  publicJwk: JWK;
}

/**
 * Where the wallet's keys live. The wallet never sees private keys: it asks for a new key and for
 * signatures, so a secure enclave, an HSM or a remote signer can stand in for the local default.
 */
export interface HolderCrypto {
  createKey(): Promise<HolderKey>;
  /** A raw ES256 signature (IEEE P1363, r||s) of `data` with the key `keyId`. */
  sign(keyId: string, data: Uint8Array): Promise<Uint8Array>;
}

/** P-256 keys generated in this process and kept in memory: for tests, demos and the CLI. */
export function inMemoryHolderCrypto(): HolderCrypto {
  const keys = new Map<string, KeyObject>();
  return {
    async createKey() {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const id = randomUUID();
      keys.set(id, privateKey);
      const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
      return { id, alg: 'ES256', publicJwk: { kty, crv, x, y } };
    },
    async sign(keyId, data) {
      const key = keys.get(keyId);
      if (!key) throw new Error(`no holder key ${keyId}`);
      return new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }));
    },
  };
}
