import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/spawned-service.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** /readyz tells a load balancer the truth: a node whose Redis is gone is not ready. */
let t: TestService;
beforeAll(async () => {
  const closedPort = await freePort();
  t = await startTestService({ env: { REDIS_URL: `redis://127.0.0.1:${closedPort}`, ROLE: 'api' } });
});
afterAll(() => t.stop());

describe('readiness', () => {
  it('answers 503 while Redis is unreachable, while /healthz still answers 200', async () => {
    const ready = await fetch(`${t.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', redis: 'failed' },
    });
    expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);
  });
});
