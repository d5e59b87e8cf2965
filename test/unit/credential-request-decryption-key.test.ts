import { CompactEncrypt, compactDecrypt } from 'jose';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../server/config.js';
import { requestDecryptionKey } from '../../server/oid4vci/encryption/request-decryption-key.js';

const config = (secret: string) => ({ KEY_ENCRYPTION_KEY: secret }) as Config;

describe('the issuer key of encrypted credential requests', () => {
  it('is the same on every node with the same KEY_ENCRYPTION_KEY, and another with another', () => {
    const a = requestDecryptionKey(config('a'.repeat(44)));
    const again = requestDecryptionKey(config('a'.repeat(44)));
    const b = requestDecryptionKey(config('b'.repeat(44)));
    expect(again.publicJwk).toEqual(a.publicJwk);
    expect(b.publicJwk.kid).not.toBe(a.publicJwk.kid);
    expect(a.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'enc', alg: 'ECDH-ES' });
    expect(a.publicJwk).not.toHaveProperty('d');
  });

  it('opens what a wallet encrypts to its public JWK', async () => {
    const key = requestDecryptionKey(config('c'.repeat(44)));
    const jwe = await new CompactEncrypt(new TextEncoder().encode('{"proofs":{}}'))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM', kid: key.publicJwk.kid })
      .encrypt(key.publicJwk);
    const { plaintext } = await compactDecrypt(jwe, key.privateKey);
    expect(new TextDecoder().decode(plaintext)).toBe('{"proofs":{}}');
  });
});
