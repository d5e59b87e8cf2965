import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAuditEvent } from '../../server/audit/audit-log.js';
import { employeePayload } from '../support/fixtures.js';
import { walletHttp, walletWithCredential } from '../support/holder-setup.js';
import { scimClient } from '../support/scim-client.js';
import { freePort } from '../support/spawned-service.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { startTestService, type TestService } from '../support/test-service.js';

const METRICS_TOKEN = randomBytes(24).toString('hex');
let f: TenantFixture;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  f = await startTenantFixture({ METRICS_TOKEN, METRICS_PORT: String(metricsPort) });
});
afterAll(() => f.stop());

const scrape = async (url = `${f.t.baseUrl}/metrics`, token: string | null = METRICS_TOKEN) => {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** The value of one sample, e.g. `http_requests_total{method="POST",route="/api/v1/issuances",status="201"}`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').pop());
  }
  return undefined;
}

const issue = () =>
  f.integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'direct',
    },
  });

describe('/metrics', () => {
  it('requires METRICS_TOKEN as a bearer token', async () => {
    expect((await scrape(undefined, null)).status).toBe(401);
    expect((await scrape(undefined, 'x'.repeat(48))).status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.type).toContain('text/plain');
  });

  it('counts and times requests by route pattern and status, and the counts move', async () => {
    expect((await issue()).status).toBe(201);
    const route = { method: 'POST', route: '/api/v1/issuances', status: '201' };
    const before = sample((await scrape()).text, 'http_requests_total', route) ?? 0;
    expect(before).toBeGreaterThanOrEqual(1);
    expect((await issue()).status).toBe(201);
    const after = (await scrape()).text;
    expect(sample(after, 'http_requests_total', route)).toBe(before + 1);
    expect(sample(after, 'http_request_duration_seconds_count', route)).toBe(before + 1);
    expect(sample(after, 'http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(before + 1);
    // Concrete ids never become labels.
    await f.integrator.getIssuance({ params: { id: 'no-such-offer' } });
    expect(
      sample((await scrape()).text, 'http_requests_total', { route: '/api/v1/issuances/:id', status: '404' }),
    ).toBe(1);
  });

  it('shows queue depths and failures per topic, sealing lag, status list age and the process', async () => {
    await f.sql.query(
      `insert into outbox_message (id, topic, payload, status, attempts, available_at, created_at, finished_at)
       values (gen_random_uuid(), 'webhook', '{}', 'dead', 5, now(), now(), now())`,
    );
    const text = (await scrape()).text;
    expect(sample(text, 'credservice_outbox_messages', { topic: 'webhook', status: 'dead' })).toBe(1);
    expect(sample(text, 'credservice_audit_sealing_lag_seconds')).toBeGreaterThanOrEqual(0);
    const lists = text.split('\n').filter((l) => l.startsWith('credservice_status_list_age_seconds{'));
    expect(lists.length).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'credservice_queue_jobs', { topic: 'mail', state: 'failed' })).toBe(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('is served on METRICS_PORT too, with the token, and nothing else is', async () => {
    const own = `http://127.0.0.1:${metricsPort}`;
    expect((await scrape(`${own}/metrics`, null)).status).toBe(401);
    expect((await scrape(`${own}/metrics`)).text).toContain('http_requests_total');
    expect((await fetch(`${own}/api/v1/me`)).status).toBe(404);
  });
});

const OFFERS = 'credservice_offers_created_total';
const ISSUED = 'credservice_credentials_issued_total';
const SESSIONS = 'credservice_presentation_sessions_created_total';
const OUTCOMES = 'credservice_presentations_total';
const SCIM = 'credservice_scim_operations_total';
/** Every sample of the issuance, verification and SCIM counters, to see that none moved. */
const domainSamples = (text: string) =>
  text.split('\n').filter((l) => [OFFERS, ISSUED, SESSIONS, OUTCOMES, SCIM].some((n) => l.startsWith(n)));

describe('issuance, verification and SCIM counters', () => {
  const scimUser = (userName: string) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    name: { givenName: 'Ana', familyName: 'Counted' },
    emails: [{ primary: true, type: 'work', value: userName }],
    active: true,
  });
  /** The change of each named sample across `step`. */
  async function moved(step: () => Promise<void>, samples: [string, Record<string, string>?][]) {
    const before = (await scrape()).text;
    await step();
    const after = (await scrape()).text;
    return samples.map(([n, l]) => (sample(after, n, l) ?? 0) - (sample(before, n, l) ?? 0));
  }

  it('move by exactly one for an issuance, a verification and a SCIM create', async () => {
    let wallet: Awaited<ReturnType<typeof walletWithCredential>>['wallet'] | undefined;
    const issuance = await moved(async () => {
      ({ wallet } = await walletWithCredential(f.integrator, f.smtp, 'counted@example.test'));
    }, [[OFFERS, { delivery: 'ui' }], [ISSUED], [SESSIONS]]);
    expect(issuance).toEqual([1, 1, 0]);
    const verification = await moved(async () => {
      const res = await f.integrator.createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee', response_mode: 'direct_post' },
      });
      if (res.status !== 201) throw new Error(`session: ${res.status}`);
      await wallet?.present(res.body.authorization_request_uri, walletHttp);
    }, [[SESSIONS], [OUTCOMES, { outcome: 'verified' }], [OUTCOMES, { outcome: 'failed' }], [ISSUED]]);
    expect(verification).toEqual([1, 1, 0, 0]);
    const scim = scimClient(f.t.baseUrl, f.tenant.id, f.tenant.scim_token);
    const created = await moved(async () => {
      expect((await scim.post('/Users', scimUser('scim-counted@example.test'))).status).toBe(201);
    }, [[SCIM, { resource: 'user', operation: 'created' }], [SESSIONS]]);
    expect(created).toEqual([1, 0]);
  });

  it('count a failed presentation by the class of its reason', async () => {
    const [failed] = await moved(async () => {
      const res = await f.integrator.createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee', response_mode: 'direct_post' },
      });
      if (res.status !== 201) throw new Error(`session: ${res.status}`);
      const uri = decodeURIComponent(res.body.authorization_request_uri.split('request_uri=')[1] ?? '');
      const jwt = await (await fetch(uri)).text();
      const { state } = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());
      // The holder declines (OID4VP error response): the session fails with `wallet_access_denied`.
      await fetch(`${f.t.baseUrl}/oid4vp/auth-response`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ error: 'access_denied', state }),
      });
    }, [[OUTCOMES, { outcome: 'failed', reason: 'wallet_declined' }]]);
    expect(failed).toBe(1);
  });

  it('do not move for refused requests', async () => {
    const scim = scimClient(f.t.baseUrl, f.tenant.id, f.tenant.scim_token);
    expect((await scim.post('/Users', scimUser('twice@example.test'))).status).toBe(201);
    const before = domainSamples((await scrape()).text);
    expect(before.length).toBeGreaterThan(0);
    // The same userName again (409), and an issuance the service cannot check (400).
    expect((await scim.post('/Users', scimUser('twice@example.test'))).status).toBe(409);
    const bad = await f.integrator.createIssuance({
      body: { credential_configuration_id: 'NoSuchConfiguration', payload: {}, delivery: 'direct' },
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(domainSamples((await scrape()).text)).toEqual(before);
    // A change whose audit event was appended, then rolled back: counted only at commit, so not at all.
    const change = f.t.service.context.orm.em.fork().transactional(async (tx) => {
      await appendAuditEvent(tx, { tenantId: f.tenant.id, actor: 'test', action: 'scim.user.created' });
      throw new Error('rolled back');
    });
    await expect(change).rejects.toThrow('rolled back');
    expect(domainSamples((await scrape()).text)).toEqual(before);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestService;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await startTestService({ redis: false, env: { METRICS_PORT: String(port) } });
  });
  afterAll(() => t.stop());

  it('is not on the service port, and is on the loopback METRICS_PORT without a token', async () => {
    expect((await fetch(`${t.baseUrl}/metrics`)).status).toBe(404);
    const res = await scrape(`http://127.0.0.1:${port}/metrics`, null);
    expect(res.status).toBe(200);
    expect(res.text).toContain('credservice_outbox_messages');
    expect(res.text).not.toContain('credservice_queue_jobs{');
  });
});
