import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/** The defects of issue 14's hostile corpora, each as it was found, now a 4xx in its audience's format. */
let t: TestService;
let tenant: { id: string; integrator_token: string; scim_token: string };

beforeAll(async () => {
  t = await startTestService({ redis: false });
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
  tenant = created.body;
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

const call = (path: string, init: RequestInit = {}) => fetch(`${t.baseUrl}${path}`, init);
const admin = () => ({ authorization: `Bearer ${t.adminToken}` });
const typeOf = (res: Response) => res.headers.get('content-type')?.split(';')[0];

describe('bodies', () => {
  it('refuses a tenant update in any media type but JSON, or without a body, and changes nothing', async () => {
    const path = `/admin/v1/tenants/${tenant.id}`;
    const attempts: [string | undefined, string, number][] = [
      ['text/plain', '{"name":"Renamed"}', 415],
      ['application/xml', '<tenant><name>Renamed</name></tenant>', 415],
      ['application/x-www-form-urlencoded', 'name=Renamed', 415],
      [undefined, '{"name":"Renamed"}', 415],
      ['application/json', '', 400],
      ['application/json', '{}', 400],
    ];
    for (const [type, body, status] of attempts) {
      const res = await call(path, {
        method: 'PATCH',
        headers: { ...admin(), ...(type ? { 'content-type': type } : {}) },
        body,
      });
      expect(res.status, `${type} ${body}`).toBe(status);
      expect(typeOf(res)).toBe('application/problem+json');
    }
    const after = await t.admin.getTenant({ params: { id: tenant.id } });
    expect(after.status === 200 && after.body.name).toBe('ACME Corp');
    const audit = await t.admin.listAuditEvents({
      params: { id: tenant.id },
      query: { action: 'tenant.updated' },
    });
    expect(audit.status === 200 && audit.body.items).toEqual([]);
  });

  it('answers bodies over the limit 413, in the problem and the SCIM format', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    const json = { 'content-type': 'application/json' };
    const res = await call('/admin/v1/tenants', {
      method: 'POST',
      headers: { ...admin(), ...json },
      body: big,
    });
    expect([res.status, typeOf(res)]).toEqual([413, 'application/problem+json']);
    const scim = await call(`/tenants/${tenant.id}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.scim_token}`, 'content-type': 'application/scim+json' },
      body: big,
    });
    expect([scim.status, typeOf(scim)]).toEqual([413, 'application/scim+json']);
  });

  it('refuses unknown encodings and charsets (415) and broken gzip (400)', async () => {
    const post = (headers: Record<string, string>, body: string | Buffer) =>
      call('/admin/v1/tenants', {
        method: 'POST',
        headers: { ...admin(), 'content-type': 'application/json', ...headers },
        body,
      });
    expect((await post({ 'content-encoding': 'x-unknown' }, '{}')).status).toBe(415);
    expect((await post({ 'content-type': 'application/json; charset=utf-7' }, '{}')).status).toBe(415);
    expect((await post({ 'content-encoding': 'gzip' }, '{"id":"x"}')).status).toBe(400);
    expect((await post({ 'content-encoding': 'gzip' }, gzipSync('{"id":"x"}').subarray(0, 10))).status).toBe(
      400,
    );
  });
});

describe('ids and paths', () => {
  it('answers ids that are not uuids 400, before they reach a uuid column', async () => {
    const integrator = { authorization: `Bearer ${tenant.integrator_token}` };
    for (const action of ['revoke', 'suspend', 'unsuspend']) {
      const res = await call(`/api/v1/credentials/not-a-uuid/${action}`, {
        method: 'POST',
        headers: integrator,
      });
      expect([res.status, typeOf(res)]).toEqual([400, 'application/problem+json']);
    }
    const token = await call(`/admin/v1/tenants/${tenant.id}/tokens/not-a-uuid/revoke`, {
      method: 'POST',
      headers: admin(),
    });
    expect([token.status, typeOf(token)]).toEqual([400, 'application/problem+json']);
  });

  it('refuses NUL bytes and malformed percent-encoding in paths and queries', async () => {
    const offer = await call('/oid4vci/v1/credential-offer/a%00b');
    expect([offer.status, typeOf(offer)]).toEqual([400, 'application/json']);
    expect(await offer.json()).toMatchObject({ error: 'invalid_request' });
    const authorize = await call('/oauth2/authorize?client_id=a%00b&response_type=code');
    expect(authorize.status).toBe(400);
    const list = await call('/status-lists/%E0%A4%A');
    expect([list.status, typeOf(list)]).toEqual([400, 'application/problem+json']);
  });
});

describe("the integrator's redirect_uri", () => {
  const session = (redirect_uri: string) =>
    call('/api/v1/authorization-request', {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.integrator_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credential_configuration_id: 'LEARCredentialEmployee', redirect_uri }),
    });

  it('takes https, http on the loopback interface, and an app scheme', async () => {
    for (const uri of [
      'https://app.example/done',
      'http://localhost:8080/cb',
      'http://127.0.0.1/cb',
      'com.example.app:/done',
    ]) {
      expect((await session(uri)).status, uri).toBe(201);
    }
  });

  it('refuses scripts, data, files, plain http elsewhere and fragments', async () => {
    const refused = [
      'javascript:alert(1)',
      'data:text/html,<script>x</script>',
      'file:///etc/passwd',
      'http://app.example/cb',
      'https://app.example/cb#frag',
      'vbscript:x',
      'myapp:/cb',
    ];
    for (const uri of refused) {
      const res = await session(uri);
      expect(res.status, uri).toBe(400);
      expect(typeOf(res)).toBe('application/problem+json');
    }
  });
});
