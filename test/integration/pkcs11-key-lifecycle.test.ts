import fs from 'node:fs/promises';
import path from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from '../support/admin-cli.js';
import {
  createSoftHsmToken,
  type SoftHsmToken,
  softHsmAvailable,
  tokenPrivateKeys,
} from '../support/softhsm-token.js';
import { makeTestCa } from '../support/test-ca.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { x509 } from '../support/x5c-validation.js';

/**
 * The life of keys in a PKCS#11 token (SoftHSM): a deployment that started on software keys moves
 * to the token with `keys rotate --all`; the token's keys sign (a CSR the CA accepts, JWTs that
 * verify with the published keys), take an imported chain, are retired and destroyed (gone from
 * the token), each step recorded; after a restart the same keys are found again by label and CKA_ID.
 */
const available = softHsmAvailable();
let token: SoftHsmToken;
let db: TestDatabase;
let t: TestService;

const PURPOSES = ['issuer', 'document-signer', 'status-list', 'verifier', 'oidc', 'audit'];

type KeyInfo = {
  kid: string;
  purpose: string;
  status: string;
  key_store: string;
  token_key: { id: string } | null;
};
const keysNow = async () => (await t.admin.listSigningKeys()).body as { items: KeyInfo[] };
const privateKeyColumns = async () => {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ kid: string; key_store: string; has_private: boolean }>(
      'select kid, key_store, private_key_enc is not null as has_private from signing_key',
    );
    return rows;
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  if (!available) return;
  token = await createSoftHsmToken();
  db = await createTestDatabase();
  // First on software keys, as a deployment before the HSM…
  const software = await startTestService({ db, redis: false });
  await software.stop();
  // …then with KEY_STORE=pkcs11 on the same database.
  t = await startTestService({ db, redis: false, env: token.env });
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await db?.drop();
  await token?.remove();
});

describe.skipIf(!available)('signing keys in a PKCS#11 token', () => {
  it('moves every purpose from software keys into the token with keys rotate --all', async () => {
    const before = (await keysNow()).items.filter((k) => k.status === 'active');
    expect(before.every((k) => k.key_store === 'local')).toBe(true);
    const rotated = await runAdminCli(t, 'keys', 'rotate', '--all');
    expect(rotated, rotated.stderr).toMatchObject({ code: 0 });
    const items = rotated.body.items as KeyInfo[];
    expect(items.map((k) => k.purpose).sort()).toEqual([...PURPOSES].sort());
    expect(items.every((k) => k.key_store === 'pkcs11' && k.status === 'active' && k.token_key)).toBe(true);

    // Every new key is in the token, sensitive and not extractable; its row holds no key material.
    const inToken = await tokenPrivateKeys(token);
    for (const key of items) {
      expect(inToken).toContainEqual(
        expect.objectContaining({ id: key.token_key?.id, sensitive: true, extractable: false }),
      );
    }
    const rows = await privateKeyColumns();
    for (const key of items)
      expect(rows.find((r) => r.kid === key.kid)).toMatchObject({ key_store: 'pkcs11', has_private: false });

    // The software keys stay published as retiring, beside the token's.
    const oidcJwks = (await (await fetch(`${t.baseUrl}/oauth2/jwks`)).json()) as { keys: { kid: string }[] };
    const oidcBefore = before.find((k) => k.purpose === 'oidc')?.kid;
    const oidcNow = items.find((k) => k.purpose === 'oidc')?.kid;
    expect(oidcJwks.keys.map((k) => k.kid)).toEqual([oidcNow, oidcBefore]);
  });

  it('signs with the token: JWTs verify with the published keys', async () => {
    const signer = t.service.context.signer;
    const jwt = await signer.signJwt('oidc', { typ: 'JWT' }, { sub: 'someone', iat: 1 });
    const jwks = (await (await fetch(`${t.baseUrl}/oauth2/jwks`)).json()) as { keys: never[] };
    const { protectedHeader } = await jwtVerify(jwt, createLocalJWKSet({ keys: jwks.keys }));
    expect(protectedHeader.kid).toBe(await signer.activeKid('oidc'));
    // The key that signed is one whose private part is in the token, not a software key.
    const key = (await keysNow()).items.find((k) => k.kid === protectedHeader.kid);
    expect(key).toMatchObject({ key_store: 'pkcs11' });
    expect((await tokenPrivateKeys(token)).map((k) => k.id)).toContain(key?.token_key?.id);
  });

  it('makes a CSR signed by the token, takes the CA chain back', async () => {
    const dir = await fs.mkdtemp(path.join(token.dir, 'csr-'));
    const csrFile = path.join(dir, 'issuer.csr');
    const csr = await runAdminCli(
      t,
      'keys',
      'csr',
      'issuer',
      '--subject',
      'CN=issuer.hsm.test',
      '--out',
      csrFile,
    );
    expect(csr, csr.stderr).toMatchObject({ code: 0, body: { purpose: 'issuer' } });
    const request = new x509.Pkcs10CertificateRequest(await fs.readFile(csrFile, 'utf8'));
    expect(await request.verify()).toBe(true);
    const key = (await keysNow()).items.find((k) => k.kid === csr.body.kid) as KeyInfo & {
      public_jwk: object;
    };
    const spki = Buffer.from(request.publicKey.rawData);
    const { createPublicKey } = await import('node:crypto');
    expect(
      createPublicKey({ key: spki, format: 'der', type: 'spki' }).export({ format: 'jwk' }),
    ).toMatchObject(key.public_jwk);
    expect(key.key_store).toBe('pkcs11');

    const ca = await makeTestCa('HSM');
    const leaf = await ca.issue(request.toString('pem'));
    const chainFile = path.join(dir, 'chain.pem');
    await fs.writeFile(chainFile, ca.pemChain(leaf));
    const imported = await runAdminCli(t, 'keys', 'import-chain', csr.body.kid, chainFile);
    expect(imported, imported.stderr).toMatchObject({ code: 0, body: { certificate_source: 'imported' } });
    expect((await t.service.context.signer.certificateChain('issuer'))[0]).toBe(
      Buffer.from(leaf.rawData).toString('base64'),
    );
  });

  it('retires and destroys a token key (gone from the token), and records each step', async () => {
    const old = (await keysNow()).items.find(
      (k) => k.purpose === 'audit' && k.status === 'active',
    ) as KeyInfo;
    const rotated = await runAdminCli(t, 'keys', 'rotate', 'audit');
    expect(rotated, rotated.stderr).toMatchObject({ code: 0, body: { key_store: 'pkcs11' } });

    // A key that is still active or retiring cannot be destroyed; the active one cannot be retired.
    expect((await runAdminCli(t, 'keys', 'destroy', old.kid)).body).toMatchObject({ status: 409 });
    expect((await runAdminCli(t, 'keys', 'retire', rotated.body.kid)).body).toMatchObject({ status: 409 });

    const retired = await runAdminCli(t, 'keys', 'retire', old.kid);
    expect(retired, retired.stderr).toMatchObject({ code: 0, body: { status: 'retired' } });
    const published = await t.service.context.signer.publicJwks('audit');
    expect(published.map((k) => k.kid)).not.toContain(old.kid);

    expect((await tokenPrivateKeys(token)).map((k) => k.id)).toContain(old.token_key?.id);
    const destroyed = await runAdminCli(t, 'keys', 'destroy', old.kid);
    expect(destroyed, destroyed.stderr).toMatchObject({ code: 0, body: { kid: old.kid } });
    expect(destroyed.body.destroyed_at).toEqual(expect.any(String));
    expect((await tokenPrivateKeys(token)).map((k) => k.id)).not.toContain(old.token_key?.id);

    const events = await runAdminCli(t, 'keys', 'events', old.kid);
    expect(events.body.items.map((e: { action: string; actor: string }) => [e.action, e.actor])).toEqual([
      ['key.generated', 'admin'],
      ['key.rotated', 'admin'],
      ['key.retired', 'admin'],
      ['key.destroyed', 'admin'],
    ]);
    const all = (await runAdminCli(t, 'keys', 'events')).body.items as { action: string }[];
    expect(new Set(all.map((e) => e.action))).toEqual(
      new Set([
        'key.generated',
        'key.rotated',
        'key.csr_created',
        'key.chain_imported',
        'key.retired',
        'key.destroyed',
      ]),
    );
  });

  it('finds the same keys in the token again after a restart', async () => {
    const before = (await keysNow()).items
      .filter((k) => k.status === 'active')
      .map((k) => k.kid)
      .sort();
    await t.stop();
    t = await startTestService({ db, redis: false, env: token.env });
    const after = (await keysNow()).items
      .filter((k) => k.status === 'active')
      .map((k) => k.kid)
      .sort();
    expect(after).toEqual(before);
    const jwt = await t.service.context.signer.signJwt('audit', {}, { n: 1 });
    const keys = await t.service.context.signer.publicJwks('audit');
    await expect(jwtVerify(jwt, createLocalJWKSet({ keys }))).resolves.toBeTruthy();
  }, 30_000);
});
