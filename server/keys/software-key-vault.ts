import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import type { KeyEncryption } from './key-encryption.js';
import type { Es256Sign, GeneratedKey, KeyMaterial, KeyVault, P256Jwk } from './key-vault.js';

/**
 * KEY_STORE=local: keys made by node:crypto and kept in PostgreSQL sealed with KEY_ENCRYPTION_KEY
 * (AES-256-GCM, the key's id as additional data). A stored key is decrypted once into a
 * non-exportable KeyObject when the ring loads it; signing is node:crypto's one-shot sign.
 */
export class SoftwareKeyVault implements KeyVault {
  readonly kind = 'local' as const;

  constructor(readonly encryption: KeyEncryption) {}

  async generate(): Promise<GeneratedKey> {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { x, y } = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const publicJwk: P256Jwk = { kty: 'EC', crv: 'P-256', x, y };
    return {
      publicJwk,
      material: (id) => ({
        keyStore: 'local',
        privateKeyEnc: this.encryption.seal(privateKey.export({ format: 'der', type: 'pkcs8' }), id),
        tokenKey: null,
      }),
    };
  }

  signerOf(id: string, material: KeyMaterial): Es256Sign {
    const key = this.#privateKey(id, material);
    return async (data) => new Uint8Array(sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }));
  }

  async check(id: string, material: KeyMaterial): Promise<void> {
    this.#privateKey(id, material);
  }

  /** The ciphertext is wiped from the row by the KeyStore; nothing else holds the key. */
  async destroy(): Promise<void> {}

  up(): boolean {
    return true;
  }

  #privateKey(id: string, material: KeyMaterial) {
    if (!material.privateKeyEnc) throw new Error(`key ${id}: no sealed private key`);
    const der = this.encryption.open(material.privateKeyEnc, id);
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  }
}
