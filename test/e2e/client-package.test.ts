import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * The client package as an integrator gets it: `npm pack` (whose prepack builds it), the tarball
 * unpacked into an application of its own that has only the peer dependencies beside it, then used
 * from plain JavaScript against the service and type-checked from TypeScript.
 */
const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../..');
let t: TestService;
let app: string;
let files: string[];

beforeAll(async () => {
  t = await startTestService();
  app = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-client-app-'));
  await run('npm', ['pack', '-w', 'clients/integrator', '--pack-destination', app], { cwd: repo });
  const tarball = path.join(app, 'credservice-client-0.1.0.tgz');
  files = (await run('tar', ['tzf', tarball])).stdout.trim().split('\n');
  const installed = path.join(app, 'node_modules/@credservice/client');
  await fs.mkdir(installed, { recursive: true });
  await run('tar', ['xzf', tarball, '-C', installed, '--strip-components=1']);
  // The peers, as the application's own npm install would provide them.
  for (const peer of ['@ts-rest/core', 'zod']) {
    await fs.mkdir(path.dirname(path.join(app, 'node_modules', peer)), { recursive: true });
    await fs.symlink(path.join(repo, 'node_modules', peer), path.join(app, 'node_modules', peer));
  }
}, 120_000);
afterAll(async () => {
  await t.stop();
  await fs.rm(app, { recursive: true, force: true });
});

describe('@credservice/client package', () => {
  it('packs the built JavaScript, its declarations and the README, and no TypeScript sources', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/dist/clients/integrator/src/index.js',
        'package/dist/clients/integrator/src/index.d.ts',
        'package/dist/contract/issuance/issuance-request.d.ts',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('works from plain JavaScript in an application of its own', async () => {
    const created = await t.admin.createTenant({ body: acmeTenant() });
    if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
    const script = `
      import { createIntegratorClient } from '@credservice/client';
      const c = createIntegratorClient({ baseUrl: process.env.BASE_URL, token: process.env.TOKEN });
      console.log(JSON.stringify(await c.whoAmI()));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: app,
      env: { ...process.env, BASE_URL: t.baseUrl, TOKEN: created.body.integrator_token },
    });
    expect(JSON.parse(stdout)).toMatchObject({ status: 200, body: { tenant_id: created.body.id } });
  });

  it("types delivery and the employee payload from the contract: wrong values don't compile", async () => {
    await fs.writeFile(path.join(app, 'consumer.ts'), CONSUMER);
    await fs.writeFile(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          target: 'ES2023',
          noEmit: true,
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '-p', app]).catch((e) => e);
    // Every @ts-expect-error below must be used (else "Unused '@ts-expect-error'") and nothing else fail.
    expect(`${checked.stdout ?? ''}${checked.stderr ?? ''}`).toBe('');
  }, 120_000);
});

const CONSUMER = `
import { createIntegratorClient, employeeIssuance, type DeliveryList } from '@credservice/client';

const integrator = createIntegratorClient({ baseUrl: 'http://localhost:3000', token: 't' });
const payload = {
  mandator: { organizationIdentifier: 'V', organization: 'ACME', commonName: 'J', email: 'j@a.test', country: 'ES' },
  mandatee: { firstName: 'Ana', lastName: 'Ruiz', email: 'ana@a.test' },
  power: [{ function: 'Onboarding', action: ['Execute'] }],
};
export const ok = () => integrator.createIssuance({ body: employeeIssuance({ payload, delivery: 'email,ui' }) });
export const both: DeliveryList = 'ui,direct';
// @ts-expect-error not a delivery mode
export const pigeon = () => integrator.createIssuance({ body: { credential_configuration_id: 'X', payload: {}, delivery: 'pigeon' } });
// @ts-expect-error a mode twice
export const twice: DeliveryList = 'ui,ui';
// @ts-expect-error the employee payload needs a mandatee
export const noMandatee = () => employeeIssuance({ payload: { mandator: payload.mandator, power: payload.power } });
export const answered = async () => {
  const res = await ok();
  if (res.status === 201) return res.body.delivery.map((d: 'ui' | 'email' | 'direct') => d);
  return res.body.detail;
};
`;
