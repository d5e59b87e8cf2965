import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyEncryption } from '../../server/keys/key-encryption.js';
import { LocalKeyStore } from '../../server/keys/local-key-store.js';
import { startTestService, type TestService } from '../support/test-service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.stop());

const signer = () => t.service.context.signer;

describe('signing keys', () => {
  it('generates one active ES256 key per purpose on first start, stored encrypted', async () => {
    const keys = await t.admin.listSigningKeys();
    expect(keys.status).toBe(200);
    if (keys.status !== 200) return;
    expect(keys.body.items.map((k) => k.purpose).sort()).toEqual([
      'audit',
      'document-signer',
      'issuer',
      'oidc',
      'status-list',
      'verifier',
    ]);
    expect(JSON.stringify(keys.body)).not.toMatch(/"d"/);

    const sql = new pg.Client({ connectionString: t.db.url });
    await sql.connect();
    const { rows } = await sql.query("select kid, private_key_enc from signing_key where purpose = 'issuer'");
    await sql.end();
    expect(rows[0].private_key_enc).toMatch(/^v1\./);
    // Sealed under the configured key: another key cannot open it.
    expect(() => new KeyEncryption('some-other-key').open(rows[0].private_key_enc, rows[0].kid)).toThrow();
    expect(
      new KeyEncryption('test-key-encryption-key').open(rows[0].private_key_enc, rows[0].kid).length,
    ).toBeGreaterThan(100);
  });

  it('signs JWTs that verify against the published keys', async () => {
    const jws = await signer().signJwt('issuer', { typ: 'JWT' }, { hello: 'world' });
    const header = decodeProtectedHeader(jws);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: await signer().activeKid('issuer') });
    const jwks = createLocalJWKSet({ keys: await signer().publicJwks('issuer') });
    const { payload } = await compactVerify(jws, jwks);
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ hello: 'world' });
    // Not verifiable with another purpose's keys.
    await expect(
      compactVerify(jws, createLocalJWKSet({ keys: await signer().publicJwks('oidc') })),
    ).rejects.toThrow();
  });

  it('rotates by kid: the new key signs, the old one still verifies as retiring', async () => {
    const before = await signer().activeKid('status-list');
    const old = await signer().signJwt('status-list', {}, { n: 1 });
    const rotated = await t.admin.rotateSigningKey({ params: { purpose: 'status-list' } });
    expect(rotated.status).toBe(201);
    const after = await signer().activeKid('status-list');
    expect(after).not.toBe(before);
    expect(rotated.status === 201 && rotated.body.kid).toBe(after);
    const jwks = await signer().publicJwks('status-list');
    expect(jwks.map((k) => k.kid)).toEqual([after, before]);
    await expect(compactVerify(old, createLocalJWKSet({ keys: jwks }))).resolves.toBeTruthy();
    expect(decodeProtectedHeader(await signer().signJwt('status-list', {}, { n: 2 })).kid).toBe(after);
  });

  it('a second node sees the rotation and signs with keys it loads from the database', async () => {
    const other = new LocalKeyStore(t.service.context.orm, new KeyEncryption('test-key-encryption-key'));
    await other.ensureKeys();
    expect(await other.activeKid('verifier')).toBe(await signer().activeKid('verifier'));
    const { kid, signature } = await other.sign('verifier', new TextEncoder().encode('data'));
    expect(signature).toHaveLength(64);
    expect(kid).toBe(await signer().activeKid('verifier'));
  });
});
