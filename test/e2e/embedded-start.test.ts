import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emlMailbox } from '../support/mission/mailbox.js';
import { Mission } from '../support/mission/mission.js';
import { freePort, type Spawned, signalService, spawnNpm, waitForHttp } from '../support/spawned-service.js';

/**
 * A newcomer's `npm start` with nothing configured but an admin token, exactly as the README
 * starts it: an embedded PostgreSQL server under DATA_DIR, in-process jobs, mail to .eml files,
 * no DATABASE_URL, no Redis. On it the whole mission runs; then a restart on the same DATA_DIR
 * keeps everything, and a cold node serves an OpenID Connect login first.
 */
const run = promisify(execFile);
const adminToken = 'e2e-admin-token-of-at-least-32-characters';
let dataDir: string;
let port: number;
let service: Spawned;
let mission: Mission;

const start = async () => {
  // The test's trust list distribution point listens on loopback, which outbound requests refuse unless allowed.
  service = spawnNpm(['start'], {
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
  });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, service);
};
const stop = async () => {
  signalService(service, 'SIGTERM');
  expect(await service.exited).toBe(0);
};

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-e2e-'));
  port = await freePort();
  await start();
  mission = new Mission(`http://localhost:${port}`, adminToken, emlMailbox(path.join(dataDir, 'outbox')));
}, 90_000);

afterAll(async () => {
  if (service.child.exitCode === null && service.child.pid) process.kill(-service.child.pid, 'SIGKILL');
  await fs.rm(dataDir, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  run('npm', ['run', '-s', 'cli', '--', ...args], {
    env: { ...process.env, CREDSERVICE_URL: `http://127.0.0.1:${port}`, ADMIN_TOKEN: adminToken },
  });

describe('npm start on embedded defaults', () => {
  it('is ready on an embedded PostgreSQL server with in-process jobs, and says so in its log', async () => {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
    const log = service.output();
    expect(log).toContain('DATABASE_URL is not set: using an embedded PostgreSQL server');
    expect(log).toContain('REDIS_URL is not set: jobs run in-process');
    expect(log).toContain('SMTP_URL is not set: mail is written as .eml files');
    await expect(fs.stat(path.join(dataDir, 'postgres', 'PG_VERSION'))).resolves.toBeTruthy();
  });

  it('serves the OpenAPI document and a rendered reference with its assets', async () => {
    const doc = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(doc.paths)).toContain('/admin/v1/tenants');
    const page = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(await page.text()).toContain('/docs/assets/swagger-ui-bundle.js');
    expect((await fetch(`http://127.0.0.1:${port}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
  });

  it('creates, lists and rotates tenants through the CLI', async () => {
    const created = JSON.parse(
      (await cli('tenant', 'create', 'cli-co', '--name', 'CLI Co', '--delivery', 'email')).stdout,
    );
    expect(created).toMatchObject({
      id: 'cli-co',
      scim_url: `http://localhost:${port}/tenants/cli-co/scim/v2`,
    });
    const me = await fetch(`http://127.0.0.1:${port}/api/v1/me`, {
      headers: { authorization: `Bearer ${created.integrator_token}` },
    });
    expect(await me.json()).toMatchObject({ tenant_id: 'cli-co' });
    const rotated = JSON.parse((await cli('tenant', 'rotate-token', 'cli-co', '--kind', 'scim')).stdout);
    expect(rotated.token).toMatch(/^cs_scim_/);
    await expect(
      cli('tenant', 'create', 'cli-co', '--name', 'Again', '--delivery', 'email'),
    ).rejects.toMatchObject({
      code: 1,
    });
  }, 60_000);

  it('issues in every delivery mode and by the authorization code flow (issuer- and wallet-initiated), and a revocation reaches the status list', async () => {
    await mission.createTenant();
    const ui = await mission.issueUi();
    await mission.issueEmail();
    await mission.issueDirect();
    await mission.issueByAuthorizationCode();
    await mission.issueWalletInitiated();
    await mission.revokeAndSee(await mission.credentialIdOf(ui.offerId), ui.stored);
  }, 60_000);

  it('serves concurrent credential requests', () => mission.concurrentRedemptions(8), 60_000);

  it('verifies a presentation the integrator polls for, and an approval with its receipt', async () => {
    const { wallet } = await mission.issueUi();
    await mission.presentAndPoll(wallet);
    await mission.approve(wallet);
  }, 60_000);

  it(
    'provisions a SCIM user: created, renewed, in and out of a group, deactivated, deleted',
    () => mission.scimLifecycle(),
    60_000,
  );

  it(
    'defers an issuance behind an approval: approved and collected, or declined; approved by a presented approval',
    () => mission.deferredLifecycle(),
    120_000,
  );

  it(
    'issues the employee mdoc (authorization and pre-authorized code), verifies it over direct_post.jwt, refuses it once revoked',
    () => mission.mdocLifecycle(),
    90_000,
  );

  it(
    'trusts a PID provider through a published list (ETSI TS 119 602), and stops when the list drops it',
    () => mission.trustListLifecycle(),
    60_000,
  );

  it(
    'signs a holder in for issuance by a presented PID of a trusted provider, instead of a mailed code',
    () => mission.pidSignIn(),
    60_000,
  );

  it(
    "lets the operator into the console with a one-time link and withdraw an offer by the page's form",
    () => mission.consoleAsOperator(),
    30_000,
  );

  it(
    'accepts a wallet attestation through a published wallet providers list',
    () => mission.walletProviderListLifecycle(),
    60_000,
  );

  it('keeps everything across a restart on the same DATA_DIR; a cold node logs in over OIDC', async () => {
    const { wallet } = await mission.issueUi();
    const before = await mission.auditVerified();
    await stop();
    await start();
    await mission.oidcLogin(wallet);
    const after = await mission.auditVerified();
    expect(after.checked).toBeGreaterThan(before.checked);
    const tenants = JSON.parse((await cli('tenant', 'list')).stdout);
    expect(tenants.items.map((x: { id: string }) => x.id).sort()).toEqual(
      ['cli-co', mission.tenant.id].sort(),
    );
  }, 120_000);

  it('drains and exits 0 on SIGTERM', async () => {
    await stop();
    expect(service.output()).toContain('service stopped');
  }, 30_000);
});
