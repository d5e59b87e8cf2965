import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { importPublicJwk } from '../../server/keys/imported-keys.js';

describe('imported verification keys', () => {
  it('imports a public key once, whatever object carries it, and never its private part', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const first = importPublicJwk({ ...jwk, kid: 'a' }, 'ES256');
    const again = importPublicJwk({ ...jwk, kid: 'b' }, 'ES256');
    expect(again).toBe(first);
    const withPrivate = { ...(await exportJWK(privateKey)), kid: 'c' };
    const imported = (await importPublicJwk(withPrivate, 'ES256')) as { type: string };
    expect(imported.type).toBe('public');
    expect(await importPublicJwk(withPrivate, 'ES256')).toBe(imported);
  });

  it('keeps keys apart by key material and algorithm, and does not remember a failed import', async () => {
    const a = await exportJWK((await generateKeyPair('ES256')).publicKey);
    const b = await exportJWK((await generateKeyPair('ES256')).publicKey);
    expect(await importPublicJwk(a, 'ES256')).not.toBe(await importPublicJwk(b, 'ES256'));
    const broken: JWK = { ...a, x: 'AAAA' };
    await expect(importPublicJwk(broken, 'ES256')).rejects.toThrow();
    const retried = importPublicJwk(broken, 'ES256');
    await expect(retried).rejects.toThrow();
    expect(importPublicJwk(broken, 'ES256')).not.toBe(retried);
  });
});
