import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSoftHsmToken,
  replaceWithP384Key,
  type SoftHsmToken,
  softHsmAvailable,
} from '../support/softhsm-token.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTestService } from '../support/test-service.js';

/**
 * KEY_STORE=pkcs11 set up wrong: the service does not start, and says which setting is wrong and
 * why in one line an operator reads, not a stack trace. Each case is `node server/main.ts` as a
 * process of its own, with a real SoftHSM token that is there and works but for the one mistake.
 */
const available = softHsmAvailable();
const run = promisify(execFile);
let token: SoftHsmToken;
let db: TestDatabase;

beforeAll(async () => {
  if (!available) return;
  token = await createSoftHsmToken('bad-config');
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
  await token?.remove();
});

async function start(env: Record<string, string>) {
  const result = await run(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      DATABASE_URL: db.url,
      DATA_DIR: token.dir,
      LOG_LEVEL: 'info',
      ...token.env,
      ...env,
    },
    timeout: 60_000,
  }).then(
    () => ({ code: 0, output: 'started' }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code,
      output: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    }),
  );
  // One clear line on stderr, and no stack trace anywhere.
  expect(result.output).not.toMatch(/\n\s+at /);
  return result;
}

describe.skipIf(!available)('KEY_STORE=pkcs11 misconfigured', () => {
  it('a wrong PIN names the PIN file', async () => {
    const wrong = path.join(token.dir, 'wrong-pin');
    await fs.writeFile(wrong, '0000\n');
    const { code, output } = await start({ PKCS11_PIN_FILE: wrong });
    expect(code).toBe(1);
    expect(output).toContain(`credservice: PKCS11_PIN_FILE: the token "${token.label}" refused the PIN`);
  });

  it('a module that is not there names PKCS11_MODULE', async () => {
    const { code, output } = await start({ PKCS11_MODULE: '/usr/lib/nowhere/libpkcs11.so' });
    expect(code).toBe(1);
    expect(output).toContain(
      'credservice: PKCS11_MODULE: cannot load the PKCS#11 module /usr/lib/nowhere/libpkcs11.so',
    );
  });

  it('an unknown token label names PKCS11_TOKEN_LABEL and the tokens that are there', async () => {
    const { code, output } = await start({ PKCS11_TOKEN_LABEL: 'no-such-token' });
    expect(code).toBe(1);
    expect(output).toContain(
      `credservice: PKCS11_TOKEN_LABEL: no token labelled "no-such-token" (tokens present: "${token.label}")`,
    );
  });

  it('a missing setting is refused before anything starts', async () => {
    const { code, output } = await start({ PKCS11_MODULE: '' });
    expect(code).toBe(1);
    expect(output).toContain('PKCS11_MODULE');
  });

  it('a PIN file that cannot be read names PKCS11_PIN_FILE', async () => {
    const { code, output } = await start({ PKCS11_PIN_FILE: path.join(token.dir, 'absent') });
    expect(code).toBe(1);
    expect(output).toContain('credservice: PKCS11_PIN_FILE: cannot read');
  });

  it('a key of another curve under an expected label and CKA_ID names PKCS11_TOKEN_LABEL', async () => {
    // A deployment on this token, whose issuer key is then swapped in the token for a P-384 key.
    const deployment = await startTestService({ db, redis: false, env: token.env });
    await deployment.stop();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ token_key: { label: string; id: string } }>(
      "select token_key from signing_key where purpose = 'issuer' and status = 'active'",
    );
    await client.end();
    const key = rows[0]?.token_key as { label: string; id: string };
    await replaceWithP384Key(token, key);
    const { code, output } = await start({});
    expect(code).toBe(1);
    expect(output).toContain(
      `credservice: PKCS11_TOKEN_LABEL: the key under token "${token.label}", label "${key.label}", CKA_ID ${key.id} is not on the P-256 curve`,
    );
  }, 60_000);
});
