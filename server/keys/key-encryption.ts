import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

/**
 * AES-256-GCM under a key derived from KEY_ENCRYPTION_KEY. The kid is bound as additional data, so a
 * ciphertext copied onto another key's row does not decrypt.
 */
export class KeyEncryption {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = scryptSync(secret, 'credservice/signing-key/v1', 32);
  }

  seal(plaintext: Buffer, kid: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv).setAAD(Buffer.from(kid));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return ['v1', iv, body, cipher.getAuthTag()]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string, kid: string): Buffer {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || !body || !tag) throw new Error(`key ${kid}: unknown ciphertext format`);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'))
      .setAAD(Buffer.from(kid))
      .setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  }
}

/** Used when KEY_ENCRYPTION_KEY is unset: keys are then as good as stored in clear, and start-up says so. */
export const DEVELOPMENT_KEY_ENCRYPTION_KEY = 'credservice-development-key-not-for-production';
