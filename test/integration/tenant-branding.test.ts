import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant } from '../support/test-service.js';

/**
 * A tenant's branding (logo, colour) and mail sender through PATCH /admin/v1/tenants/{id}: what is
 * accepted, what is refused with a 400 naming the field, and the sender on the tenant's mail.
 */
let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

const patch = (body: Record<string, unknown>, id = f.tenant.id) =>
  f.t.admin.updateTenant({ params: { id }, body: body as never });

describe('tenant branding and mail sender', () => {
  it('are stored, shown and cleared with null', async () => {
    const branding = { logo_uri: 'https://cdn.acme.example/logo.png', primary_color: '#AA0033' };
    const set = await patch({ branding, mail_from: 'ACME Credentials <credentials@acme.example>' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ branding, mail_from: 'ACME Credentials <credentials@acme.example>' });
    expect((await f.t.admin.getTenant({ params: { id: f.tenant.id } })).body).toMatchObject({ branding });
    const cleared = await patch({ branding: null, mail_from: null });
    expect(cleared.body).toMatchObject({ branding: null, mail_from: null });
  });

  it.each([
    ['a plain-http logo', { branding: { logo_uri: 'http://acme.example/logo.png' } }, 'branding.logo_uri'],
    ['a javascript: logo', { branding: { logo_uri: 'javascript:alert(1)' } }, 'branding.logo_uri'],
    [
      'a logo host that would break the CSP',
      { branding: { logo_uri: 'https://a;script-src/x.png' } },
      'branding.logo_uri',
    ],
    ['a colour name', { branding: { primary_color: 'red' } }, 'branding.primary_color'],
    ['a CSS injection as colour', { branding: { primary_color: '#000;}body{' } }, 'branding.primary_color'],
    ['an unknown branding member', { branding: { font: 'Comic Sans' } }, 'branding'],
    [
      'a sender with a line break',
      { mail_from: 'ACME <a@acme.example>\r\nBcc: x@evil.example' },
      'mail_from',
    ],
    ['a sender that is no address', { mail_from: 'ACME' }, 'mail_from'],
  ])('refuse %s with a 400 naming the field', async (_what, body, field) => {
    const res = await patch(body);
    expect(res.status).toBe(400);
    const fields = (res.body as { errors?: { field: string }[] }).errors?.map((e) => e.field) ?? [];
    expect(fields.some((f) => f.startsWith(field))).toBe(true);
  });

  it("sends the tenant's mail from its mail_from, and other tenants' from MAIL_FROM", async () => {
    await patch({ mail_from: 'ACME <credentials@acme.example>' });
    const other = await f.t.admin.createTenant({ body: acmeTenant() });
    if (other.status !== 201) throw new Error('tenant');
    const otherIntegrator = createIntegratorClient({
      baseUrl: f.t.baseUrl,
      token: other.body.integrator_token,
    });
    const offer = (client: typeof f.integrator, email: string) =>
      client.createIssuance({
        body: {
          credential_configuration_id: 'LEARCredentialEmployee',
          payload: employeePayload(),
          delivery: 'email',
          email,
        },
      });
    expect((await offer(f.integrator, 'branded@example.test')).status).toBe(201);
    expect((await offer(otherIntegrator, 'plain@example.test')).status).toBe(201);
    const branded = await f.smtp.waitForMail((m) => m.to.includes('branded@example.test'));
    const plain = await f.smtp.waitForMail((m) => m.to.includes('plain@example.test'));
    expect(branded.raw).toMatch(/^From: ACME <credentials@acme\.example>$/m);
    expect(plain.raw).toMatch(/^From: Credential Service <no-reply@localhost>$/m);
    await patch({ mail_from: null });
  });
});
