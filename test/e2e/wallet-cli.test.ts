import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { until } from '../support/until.js';

/**
 * The demo wallet's CLI as a user runs it: `receive` in one process, `present` in another, with the
 * credential and its holder key carried between them only by the `--store` directory.
 */
let f: TenantFixture;
let store: string;

beforeAll(async () => {
  f = await startTenantFixture();
  store = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-wallet-'));
});
afterAll(async () => {
  await f.stop();
  await fs.rm(store, { recursive: true, force: true });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs clients/wallet/cli.ts in its own node process (never in this one, so no state is shared). */
async function wallet(...args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'clients/wallet/cli.ts', ...args, '--allow-http'],
      { timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function verificationSession() {
  const res = await f.integrator.createAuthorizationRequest({
    body: { credential_configuration_id: 'LEARCredentialEmployee', redirect_uri: 'https://rp.example/cb' },
  });
  if (res.status !== 201) throw new Error(`session: ${res.status}`);
  return res.body;
}

const poll = async (id: string) => {
  const res = await f.integrator.getAuthorizationRequest({ params: { id } });
  if (res.status !== 200) throw new Error(`poll: ${res.status}`);
  return res.body;
};

describe('the wallet CLI', () => {
  it('receives in one run and presents in the next, and the verifier sees the claims', async () => {
    const offer = await mailedOffer(f.integrator, f.smtp, 'ana.cli@acme.test');
    const received = await wallet('receive', offer.offerUri, '--tx-code', offer.txCode, '--store', store);
    expect(received.stderr).toBe('');
    expect(received.code).toBe(0);
    const receivedJson = JSON.parse(received.stdout);
    expect(receivedJson.credentials).toHaveLength(1);
    expect(receivedJson.credentials[0]).toMatchObject({
      status: 'VALID',
      claims: { mandatee: { lastName: 'Ruiz' } },
    });

    const listed = JSON.parse((await wallet('list', '--store', store)).stdout);
    expect(listed.credentials).toEqual([
      expect.objectContaining({ id: receivedJson.credentials[0].id, status: 'VALID' }),
    ]);

    const s = await verificationSession();
    const presented = await wallet('present', s.authorization_request_uri, '--store', store);
    expect(presented.stderr).toBe('');
    expect(presented.code).toBe(0);
    const presentedJson = JSON.parse(presented.stdout);
    expect(presentedJson.presented).toEqual([
      expect.objectContaining({ credential: receivedJson.credentials[0].id }),
    ]);
    expect(new URL(presentedJson.redirect_uri).searchParams.get('state')).toBe(s.session_id);
    expect(await poll(s.session_id)).toMatchObject({
      status: 'verified',
      claims: { mandatee: { firstName: 'Ana', lastName: 'Ruiz' } },
    });

    // Revoked by the integrator, and `list` shows it once the status list is republished.
    const issued = await f.integrator.getIssuance({ params: { id: offer.offerId } });
    const credentialId = issued.status === 200 ? (issued.body.credentials[0]?.id ?? '') : '';
    expect((await f.integrator.revokeCredential({ params: { id: credentialId } })).status).toBe(200);
    const statusNow = async () =>
      JSON.parse((await wallet('list', '--store', store)).stdout).credentials[0].status;
    expect(await until(statusNow, (s) => s === 'INVALID', 20_000)).toBe('INVALID');
  });

  it('an empty store declines: exit 1, a message, and the session fails', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-wallet-empty-'));
    const s = await verificationSession();
    const presented = await wallet('present', s.authorization_request_uri, '--store', empty);
    expect(presented.code).toBe(1);
    expect(presented.stderr).toMatch(/declined/);
    expect((await poll(s.session_id)).status).toBe('failed');
    await fs.rm(empty, { recursive: true, force: true });
  });

  it('refuses a missing URI with its usage and exit 2', async () => {
    const run = await wallet('present', '--store', store);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/usage: .*cli\.ts <command>/);
  });
});
