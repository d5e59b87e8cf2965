import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/spawned-service.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

/**
 * /readyz tells a load balancer the truth: an api node whose Redis is gone still serves requests, so
 * it stays ready and says what is degraded; a node whose database does not answer is not ready, and
 * is again as soon as the database is back.
 */
const METRICS_TOKEN = 'readiness-metrics-token-of-32-characters';
let redisless: TestService;
let t: TestService;
beforeAll(async () => {
  const closedPort = await freePort();
  const metrics = { METRICS_TOKEN: METRICS_TOKEN };
  redisless = await startTestService({
    env: { REDIS_URL: `redis://127.0.0.1:${closedPort}`, ROLE: 'api', ...metrics },
  });
  t = await startTestService({ env: { ROLE: 'api', ...metrics } });
});
afterAll(async () => {
  await redisless?.stop();
  await t?.stop();
});

const ready = async (s: TestService) => {
  const res = await fetch(`${s.baseUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; degraded?: string[] } };
};

/** The `credservice_dependency_up` samples of a node's /metrics. */
const dependencyUp = async (s: TestService) => {
  const res = await fetch(`${s.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const value = (dependency: string) =>
    Number(
      new RegExp(`^credservice_dependency_up\\{dependency="${dependency}"\\} (\\d)`, 'm').exec(text)?.[1],
    );
  return { database: value('database'), redis: value('redis') };
};

describe('dependency metrics', () => {
  it('show Redis down on the degraded node and both up on the healthy one', async () => {
    expect(await dependencyUp(redisless)).toEqual({ database: 1, redis: 0 });
    expect(
      await until(
        () => dependencyUp(t),
        (v) => v.redis === 1,
      ),
    ).toEqual({ database: 1, redis: 1 });
  });
});

describe('readiness', () => {
  it('stays ready while Redis is unreachable, says what is degraded, and keeps serving', async () => {
    const { status, body } = await ready(redisless);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', checks: { database: 'ok', redis: 'failed' } });
    expect(body.degraded?.join(' ')).toMatch(/background jobs/);
    const created = await redisless.admin.createTenant({ body: acmeTenant() });
    expect(created.status).toBe(201);
    expect((await fetch(`${redisless.baseUrl}/healthz`)).status).toBe(200);
  });

  it('is not ready while the database refuses connections, and ready again once it takes them', async () => {
    expect(await ready(t)).toEqual({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok', redis: 'ok', key_store: 'ok' } },
    });
    const name = new URL(t.db.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: inject('databaseUrl') });
    await admin.connect();
    try {
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      const down = await until(
        () => ready(t),
        (r) => r.status === 503,
      );
      expect(down).toMatchObject({
        status: 503,
        body: { status: 'unavailable', checks: { database: 'failed' } },
      });
    } finally {
      await admin.query(`alter database ${name} allow_connections true`);
      await admin.end();
    }
    expect(
      (
        await until(
          () => ready(t),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
  });
});
