import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/** The client package as an integrator gets it: built to plain JavaScript with type declarations. */
const run = promisify(execFile);
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.stop());

describe('@credservice/client package', () => {
  it('builds, and its built module talks to the service', async () => {
    await run('npm', ['run', '-s', 'build', '-w', 'clients/integrator']);
    const dist = path.resolve('clients/integrator/dist/clients/integrator/src/index.js');
    const pkg = (await import(dist)) as typeof import('../../clients/integrator/src/index.js');
    const admin = pkg.createAdminClient({ baseUrl: t.baseUrl, token: t.adminToken });
    const created = await admin.createTenant({ body: acmeTenant() });
    expect(created.status).toBe(201);
    if (created.status !== 201) return;
    const integrator = pkg.createIntegratorClient({
      baseUrl: t.baseUrl,
      token: created.body.integrator_token,
    });
    expect(await integrator.whoAmI()).toMatchObject({ status: 200, body: { tenant_id: created.body.id } });
    const { stdout } = await run('ls', ['clients/integrator/dist/clients/integrator/src']);
    expect(stdout).toContain('index.d.ts');
  }, 60_000);
});
