import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { softHsmAvailable } from '../support/softhsm-token.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The operators' guide to keys in an HSM (docs/operators-hsm.md), its `sh` block run verbatim in a
 * directory of its own: the SoftHSM token it initialises and the settings it exports start a service
 * whose every key is in that token, and whose readiness says the key store is up.
 */
const available = softHsmAvailable();
let t: TestService | undefined;
let dir: string | undefined;

afterAll(async () => {
  await t?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

/** Runs `script` in `cwd` with bash and returns the environment it ends with. */
function exportedBy(script: string, cwd: string) {
  return new Promise<Record<string, string>>((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', `${script}\nenv -0`], { cwd });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the guide's block failed (${code}): ${err}`));
      const pairs = Buffer.concat(out).toString('utf8').split('\0').filter(Boolean);
      resolve(
        Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)])),
      );
    });
  });
}

describe.skipIf(!available)("the operators' guide to keys in an HSM", () => {
  it('sets up a SoftHSM token whose settings start a service with every key in it', async () => {
    const guide = await fs.readFile(path.resolve('docs/operators-hsm.md'), 'utf8');
    const [block] = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    expect(block).toMatch(/softhsm2-util --init-token/);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-hsm-guide-'));
    const env = await exportedBy(block ?? '', dir);
    expect(env).toMatchObject({ KEY_STORE: 'pkcs11', PKCS11_TOKEN_LABEL: 'credservice' });
    const settings = ['KEY_STORE', 'PKCS11_MODULE', 'PKCS11_TOKEN_LABEL', 'PKCS11_PIN_FILE', 'SOFTHSM2_CONF'];
    // The guide's relative PIN file is relative to where it ran.
    const pinFile = path.resolve(dir, env.PKCS11_PIN_FILE ?? '');
    process.env.SOFTHSM2_CONF = env.SOFTHSM2_CONF;
    t = await startTestService({
      redis: false,
      env: { ...Object.fromEntries(settings.map((k) => [k, env[k] ?? ''])), PKCS11_PIN_FILE: pinFile },
    });
    const ready = (await (await fetch(`${t.baseUrl}/readyz`)).json()) as { checks: Record<string, unknown> };
    expect(ready.checks.key_store).toBe('ok');
    const keys = await t.admin.listSigningKeys();
    const items = keys.status === 200 ? keys.body.items : [];
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((k) => k.key_store))).toEqual(new Set(['pkcs11']));
  }, 120_000);
});
