import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { untilAuditSealed } from '../support/audit-sealed.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.stop());

const me = (token: string) => createIntegratorClient({ baseUrl: t.baseUrl, token }).whoAmI();

describe('tenants through the admin API', () => {
  it('creates a tenant whose tokens work, and records it in the audit log', async () => {
    const body = acmeTenant();
    const created = await t.admin.createTenant({ body });
    expect(created.status).toBe(201);
    if (created.status !== 201) return;
    expect(created.body.scim_url).toBe(`${t.service.context.config.publicUrl}/tenants/${body.id}/scim/v2`);
    expect(created.body.integrator_token).toMatch(/^cs_int_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);

    const who = await me(created.body.integrator_token);
    expect(who).toMatchObject({ status: 200, body: { tenant_id: body.id, name: 'ACME Corp' } });

    const scim = await fetch(`${t.baseUrl}/tenants/${body.id}/scim/v2/ServiceProviderConfig`, {
      headers: { authorization: `Bearer ${created.body.scim_token}` },
    });
    expect(scim.status).toBe(200);
    expect(scim.headers.get('content-type')).toContain('application/scim+json');

    await untilAuditSealed(t.admin, body.id); // seq is given when the worker seals the events
    const events = await t.admin.listAuditEvents({ params: { id: body.id }, query: {} });
    expect(events.status).toBe(200);
    if (events.status !== 200) return;
    expect(events.body.items.map((e) => e.action)).toEqual([
      'token.issued',
      'token.issued',
      'tenant.created',
    ]);
    expect(events.body.items.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('answers a duplicate id with 409 and changes nothing', async () => {
    const body = acmeTenant();
    expect((await t.admin.createTenant({ body })).status).toBe(201);
    const again = await t.admin.createTenant({ body: { ...body, name: 'Impostor' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ type: 'urn:credservice:problem:conflict', status: 409 });
    const read = await t.admin.getTenant({ params: { id: body.id } });
    expect(read.body).toMatchObject({ name: 'ACME Corp' });
    const events = await t.admin.listAuditEvents({ params: { id: body.id }, query: {} });
    expect(events.status === 200 && events.body.items).toHaveLength(3);
  });

  it('names each bad field of an invalid body in one 400 problem', async () => {
    const res = await fetch(`${t.baseUrl}/admin/v1/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'Bad Id', delivery: 'fax', mandator: { email: 'nope', country: 'spain' } }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await res.json()) as { errors: { field: string }[] };
    const fields = problem.errors.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'delivery',
        'mandator.email',
        'mandator.country',
        'mandator.organization',
      ]),
    );
  });

  it('answers a malformed JSON body with 400, not 500', async () => {
    const res = await fetch(`${t.baseUrl}/admin/v1/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: '{"id": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'urn:credservice:problem:validation-error' });
  });

  it('lists, reads and updates tenants, auditing the update', async () => {
    const body = acmeTenant();
    await t.admin.createTenant({ body });
    const updated = await t.admin.updateTenant({
      params: { id: body.id },
      body: { delivery: 'direct', name: 'ACME' },
    });
    expect(updated).toMatchObject({ status: 200, body: { delivery: 'direct', name: 'ACME' } });
    const list = await t.admin.listTenants({ query: { limit: 500 } });
    expect(list.status === 200 && list.body.items.map((x) => x.id)).toContain(body.id);
    const events = await t.admin.listAuditEvents({
      params: { id: body.id },
      query: { action: 'tenant.updated' },
    });
    expect(events.status === 200 && events.body.items[0]?.details).toEqual({ changed: ['name', 'delivery'] });
    expect((await t.admin.getTenant({ params: { id: 'nobody-here' } })).status).toBe(404);
  });
});
