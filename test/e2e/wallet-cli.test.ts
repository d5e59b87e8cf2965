import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedOffer } from '../support/mailed-offer.js';
import { redeemResponseCode } from '../support/redeem-response-code.js';
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
    const back = new URL(presentedJson.redirect_uri);
    expect(back.searchParams.get('state')).toBe(s.session_id);
    // The same-device answer is released when the redirect's code is redeemed with the session binding.
    expect(await poll(s.session_id)).toMatchObject({ status: 'awaiting_redirect' });
    const code = back.searchParams.get('code') ?? '';
    expect((await redeemResponseCode(f.t.baseUrl, f.tenant, code, s.session_binding)).status).toBe(200);
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

describe('present: the holder chooses what to disclose', () => {
  let own: string;
  let vct: string;
  beforeAll(async () => {
    // A store of its own with a live credential (the first describe revokes its credential).
    own = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-wallet-only-'));
    const offer = await mailedOffer(f.integrator, f.smtp, 'only.cli@acme.test');
    const received = await wallet('receive', offer.offerUri, '--tx-code', offer.txCode, '--store', own);
    if (received.code !== 0) throw new Error(received.stderr);
    vct = JSON.parse(received.stdout).credentials[0].vct;
  });
  afterAll(() => fs.rm(own, { recursive: true, force: true }));
  const present = (uri: string, ...args: string[]) => wallet('present', uri, '--store', own, ...args);

  /** Asks for e-mail and first name, and accepts e-mail alone (claim_sets), so less can still verify. */
  async function emailAndNameSession() {
    const claims = [
      { id: 'email', path: ['mandatee', 'email'] },
      { id: 'first', path: ['mandatee', 'firstName'] },
    ];
    const res = await f.integrator.createAuthorizationRequest({
      body: {
        dcql_query: {
          credentials: [
            {
              id: 'employee',
              format: 'dc+sd-jwt',
              meta: { vct_values: [vct] },
              claims,
              claim_sets: [['email', 'first'], ['email']],
            },
          ],
        },
      },
    });
    if (res.status !== 201) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  it('--dry-run prints the credential and the requested claims, and sends nothing', async () => {
    const s = await emailAndNameSession();
    const run = await present(s.authorization_request_uri, '--dry-run');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ dry_run: true, would_present: [{ query: 'employee', vct }] });
    expect(out.would_present[0].claims).toEqual(['mandatee.email', 'mandatee.firstName']);
    expect((await poll(s.session_id)).status).toBe('pending');
  });

  it('--only discloses fewer of the requested claims, and the verifier sees only those', async () => {
    const s = await emailAndNameSession();
    const all = JSON.parse((await present(s.authorization_request_uri, '--dry-run')).stdout);
    const run = await present(s.authorization_request_uri, '--only', 'mandatee.email');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [presented] = JSON.parse(run.stdout).presented;
    expect(presented.claims).toEqual(['mandatee.email']);
    expect(presented.disclosures).toBeLessThan(all.would_present[0].disclosures);
    const result = await poll(s.session_id);
    // mailedOffer keeps the fixture's mandatee e-mail in the credential.
    expect(result).toMatchObject({
      status: 'verified',
      claims: { mandatee: { email: 'ana.ruiz@acme.test' } },
    });
    expect(result.claims?.mandatee).not.toHaveProperty('firstName');
  });

  it('--only naming a claim the verifier did not ask for is refused, and nothing is sent', async () => {
    const s = await emailAndNameSession();
    const run = await present(s.authorization_request_uri, '--only', 'mandatee.phone');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not requested by the verifier: mandatee\.phone/);
    expect((await poll(s.session_id)).status).toBe('pending');
  });
});
