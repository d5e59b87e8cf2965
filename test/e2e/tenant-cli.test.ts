import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from '../support/admin-cli.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The admin CLI's tenant commands as an operator types them, against the service at CREDSERVICE_URL:
 * a tenant created with a mandator (so SCIM users get credentials), then its sender and look updated.
 */
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.stop());

const cli = (...args: string[]) => runAdminCli(t, ...args);

describe('npm run cli -- tenant …', () => {
  it('creates a tenant with its mandator, then sets its mail sender and branding', async () => {
    const mandator = {
      'organization-identifier': 'VATES-B12345678',
      organization: 'ACME Corp',
      'common-name': 'Jane Doe',
      email: 'jane@acme.example',
      country: 'ES',
    };
    const mandatorFlags = Object.entries(mandator).flatMap(([k, v]) => [`--mandator-${k}`, v]);
    const created = await cli(
      'tenant',
      'create',
      'cli-acme',
      '--name',
      'ACME Corp',
      '--delivery',
      'email',
      ...mandatorFlags,
    );
    expect(created.code).toBe(0);
    const updated = await cli(
      ...['tenant', 'update', 'cli-acme', '--mail-from', 'ACME <hr@acme.example>'],
      ...['--logo-uri', 'https://acme.example/logo.png', '--primary-color', '#0b5394'],
    );
    expect(updated).toMatchObject({
      code: 0,
      body: {
        mandator: { organization: 'ACME Corp', country: 'ES' },
        mail_from: 'ACME <hr@acme.example>',
        branding: { logo_uri: 'https://acme.example/logo.png', primary_color: '#0b5394' },
      },
    });
    expect((await t.admin.getTenant({ params: { id: 'cli-acme' } })).body).toMatchObject({ warnings: [] });
  });

  it('exits 1 with the problem when the service refuses a value', async () => {
    const refused = await cli('tenant', 'update', 'cli-acme', '--primary-color', 'red');
    expect(refused).toMatchObject({
      code: 1,
      body: { status: 400, errors: [{ field: 'branding.primary_color' }] },
    });
  });
});
