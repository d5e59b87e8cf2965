import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from '../support/admin-cli.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/** The admin CLI's webhook commands as an operator types them, against the service at CREDSERVICE_URL. */
let t: TestService;
let tenant: string;
beforeAll(async () => {
  t = await startTestService({ redis: false });
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
  tenant = created.body.id;
});
afterAll(() => t.stop());

const cli = (...args: string[]) => runAdminCli(t, ...args);

describe('npm run cli -- webhook …', () => {
  it('registers, lists, rotates, shows deliveries of and removes an endpoint', async () => {
    const created = await cli(
      ...['webhook', 'create', tenant, '--url', 'https://hooks.example/credentials'],
      ...['--events', 'issuance.redeemed,credential.revoked', '--description', 'HR system'],
    );
    expect(created).toMatchObject({
      code: 0,
      body: { url: 'https://hooks.example/credentials', events: ['issuance.redeemed', 'credential.revoked'] },
    });
    const webhookId = created.body.id as string;
    expect(created.body.secret).toMatch(/^whsec_/);

    expect(await cli('webhook', 'list', tenant)).toMatchObject({
      code: 0,
      body: { items: [{ id: webhookId }] },
    });
    const rotated = await cli('webhook', 'rotate-secret', tenant, webhookId, '--overlap', '600');
    expect(rotated).toMatchObject({
      code: 0,
      body: { id: webhookId, secret: expect.stringMatching(/^whsec_/) },
    });
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(await cli('webhook', 'deliveries', tenant, webhookId, '--limit', '5')).toMatchObject({
      code: 0,
      body: { items: [] },
    });
    expect((await cli('webhook', 'replay', tenant, webhookId, randomUUID())).code).toBe(1);
    expect((await cli('webhook', 'delete', tenant, webhookId)).code).toBe(0);
    expect(await cli('webhook', 'list', tenant)).toMatchObject({ code: 0, body: { items: [] } });
    // Eight CLI processes, each starting tsx: a few seconds each on a loaded machine.
  }, 120_000);

  it('refuses a URL that is not http(s) (exit 1) and a missing --url with the usage (exit 2)', async () => {
    expect((await cli('webhook', 'create', tenant, '--url', 'ftp://hooks.example/x')).code).toBe(1);
    expect((await cli('webhook', 'create', tenant)).code).toBe(2);
  });
});
