import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeePayload } from '../support/fixtures.js';
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
