import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Spawned, signalService, spawnNpm, waitForHttp } from '../support/spawned-service.js';

/**
 * A newcomer's `npm start` with nothing configured but an admin token: embedded PGlite, in-process
 * jobs, mail to files. Then the CLI over the admin API, and a clean SIGTERM.
 */
const run = promisify(execFile);
let dataDir: string;
let port: number;
let service: Spawned;
const adminToken = 'e2e-admin-token';

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-e2e-'));
  port = await freePort();
  service = spawnNpm(['start'], { PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: adminToken });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, service);
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
  it('is ready, on PGlite with in-process jobs, and says so in its log', async () => {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'not configured' } });
    const log = service.output();
    expect(log).toContain('DATABASE_URL is not set: using embedded PGlite');
    expect(log).toContain('REDIS_URL is not set: jobs run in-process');
    expect(log).toContain('SMTP_URL is not set: mail is written as .eml files');
    expect(log).toContain('KEY_ENCRYPTION_KEY is not set');
    await expect(fs.stat(path.join(dataDir, 'pglite'))).resolves.toBeTruthy();
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
      (await cli('tenant', 'create', 'acme', '--name', 'ACME Corp', '--delivery', 'email')).stdout,
    );
    expect(created).toMatchObject({ id: 'acme', scim_url: `http://localhost:${port}/tenants/acme/scim/v2` });
    const me = await fetch(`http://127.0.0.1:${port}/api/v1/me`, {
      headers: { authorization: `Bearer ${created.integrator_token}` },
    });
    expect(await me.json()).toMatchObject({ tenant_id: 'acme' });
    const list = JSON.parse((await cli('tenant', 'list')).stdout);
    expect(list.items.map((x: { id: string }) => x.id)).toEqual(['acme']);
    const rotated = JSON.parse((await cli('tenant', 'rotate-token', 'acme', '--kind', 'scim')).stdout);
    expect(rotated.token).toMatch(/^cs_scim_/);
    const audit = JSON.parse((await cli('audit', 'verify', 'acme')).stdout);
    expect(audit).toMatchObject({ valid: true, checked: 4 });
    await expect(
      cli('tenant', 'create', 'acme', '--name', 'Again', '--delivery', 'email'),
    ).rejects.toMatchObject({
      code: 1,
    });
  }, 60_000);

  it('drains and exits 0 on SIGTERM', async () => {
    signalService(service, 'SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('service stopped');
  }, 30_000);
});
