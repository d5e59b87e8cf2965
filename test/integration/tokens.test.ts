import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.stop());

const whoAmI = (token: string) =>
  fetch(`${t.baseUrl}/api/v1/me`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

async function newTenant() {
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error(`tenant not created: ${created.status}`);
  return created.body;
}

describe('integrator and SCIM tokens', () => {
  it('rotates: old and new tokens both work until the old one is revoked', async () => {
    const tenant = await newTenant();
    const rotated = await t.admin.createToken({ params: { id: tenant.id }, body: { kind: 'integrator' } });
    expect(rotated.status).toBe(201);
    if (rotated.status !== 201) return;
    expect((await whoAmI(tenant.integrator_token)).status).toBe(200);
    expect((await whoAmI(rotated.body.token)).status).toBe(200);

    const tokens = await t.admin.listTokens({ params: { id: tenant.id } });
    expect(tokens.status).toBe(200);
    if (tokens.status !== 200) return;
    expect(JSON.stringify(tokens.body)).not.toContain(rotated.body.token.split('_').at(-1));
    const old = tokens.body.items.find((x) => x.kind === 'integrator' && x.id !== rotated.body.id);
    const revoked = await t.admin.revokeToken({ params: { id: tenant.id, tokenId: old?.id ?? '' } });
    expect(revoked.status === 200 && revoked.body.revoked_at).toBeTruthy();

    expect((await whoAmI(tenant.integrator_token)).status).toBe(401);
    expect((await whoAmI(rotated.body.token)).status).toBe(200);
    const audit = await t.admin.listAuditEvents({
      params: { id: tenant.id },
      query: { action: 'token.revoked' },
    });
    expect(audit.status === 200 && audit.body.items.map((e) => e.subject)).toEqual([old?.id]);
  });

  it('refuses an expired token', async () => {
    const tenant = await newTenant();
    const soon = new Date(Date.now() + 1_500).toISOString();
    const short = await t.admin.createToken({
      params: { id: tenant.id },
      body: { kind: 'integrator', expires_at: soon },
    });
    if (short.status !== 201) throw new Error('token not created');
    expect((await whoAmI(short.body.token)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_700));
    expect((await whoAmI(short.body.token)).status).toBe(401);
  });

  it('answers missing, malformed, unknown and wrong-kind tokens with 401 and WWW-Authenticate: Bearer', async () => {
    const tenant = await newTenant();
    const forged = tenant.integrator_token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    for (const token of ['', 'garbage', forged, tenant.scim_token]) {
      const res = await whoAmI(token);
      expect(res.status, `token ${token.slice(0, 12)}`).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toMatchObject({ type: 'urn:credservice:problem:unauthorized', status: 401 });
    }
    const typed = await createIntegratorClient({ baseUrl: t.baseUrl, token: 'garbage' }).whoAmI();
    expect(typed.status).toBe(401);
  });

  it('keeps tenants apart: a SCIM token of A on B’s endpoint is refused and learns nothing of B', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const scim = (tenantId: string, token: string) =>
      fetch(`${t.baseUrl}/tenants/${tenantId}/scim/v2/ServiceProviderConfig`, {
        headers: { authorization: `Bearer ${token}` },
      });
    const own = await scim(a.id, a.scim_token);
    expect(own.status).toBe(200);
    const cross = await scim(b.id, a.scim_token);
    const nowhere = await scim('no-such-tenant', a.scim_token);
    expect(cross.status).toBe(401);
    expect(nowhere.status).toBe(401);
    // The same answer whether B exists or not: nothing about B leaks.
    expect(await cross.text()).toBe(await nowhere.text());
    expect(cross.headers.get('content-type')).toContain('application/scim+json');
    // An integrator token is no SCIM token, even for its own tenant.
    expect((await scim(a.id, a.integrator_token)).status).toBe(401);
  });

  it('guards the admin API with ADMIN_TOKEN', async () => {
    for (const auth of [undefined, 'Bearer wrong', `Basic ${t.adminToken}`]) {
      const res = await fetch(`${t.baseUrl}/admin/v1/tenants`, {
        headers: auth ? { authorization: auth } : {},
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });
});
