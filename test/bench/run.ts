import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { pino } from 'pino';
import { createAdminClient, createIntegratorClient } from '../../clients/integrator/src/index.js';
import { loadConfig } from '../../server/config.js';
import { startService } from '../../server/service.js';

/**
 * `npm run bench`: figures against real PostgreSQL and Redis (BENCH_DATABASE_URL / BENCH_REDIS_URL,
 * default the local servers). Prints JSON. Never part of the test suite.
 */
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const dbName = `credservice_bench_${randomBytes(4).toString('hex')}`;

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(sql);
  await c.end();
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `op` `total` times with `concurrency` in flight; reports throughput and latency. */
async function measure(
  name: string,
  total: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
) {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await op(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    operations: total,
    concurrency,
    per_second: Math.round(total / seconds),
    p50_ms: +percentile(latencies, 50).toFixed(2),
    p99_ms: +percentile(latencies, 99).toFixed(2),
  };
}

await admin(`create database ${dbName}`);
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;
const adminToken = randomBytes(16).toString('hex');
const service = await startService(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url.toString(),
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `bench-${dbName}`,
    ADMIN_TOKEN: adminToken,
    KEY_ENCRYPTION_KEY: 'bench',
    LOG_LEVEL: 'silent',
    DATABASE_POOL_MAX: '10',
  }),
  pino({ level: 'silent' }),
);
const baseUrl = `http://127.0.0.1:${service.port}`;
const client = createAdminClient({ baseUrl, token: adminToken });
const results = [];
try {
  results.push(
    await measure('admin: create tenant (2 tokens, 3 audit events, one transaction)', 300, 8, (i) =>
      client.createTenant({ body: { id: `bench-${i}`, name: 'Bench', delivery: 'email' } }),
    ),
  );
  const created = await client.createTenant({ body: { id: 'bench-auth', name: 'Bench', delivery: 'email' } });
  if (created.status !== 201) throw new Error('tenant not created');
  const integrator = createIntegratorClient({ baseUrl, token: created.body.integrator_token });
  results.push(
    await measure('integrator: authenticated GET /api/v1/me', 3000, 16, () => integrator.whoAmI()),
  );
  results.push(
    await measure('admin: verify the audit chain of a tenant (3 events)', 50, 4, async () => {
      return client.verifyAuditChain({ params: { id: 'bench-auth' } });
    }),
  );
  console.log(JSON.stringify({ when: new Date().toISOString(), results }, null, 2));
} finally {
  await service.stop();
  await admin(`drop database ${dbName} with (force)`);
}
