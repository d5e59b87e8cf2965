import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createAdminClient } from '../../clients/integrator/src/index.js';

/**
 * Shared by the benchmarks: the service on its own database on real PostgreSQL and Redis
 * (BENCH_DATABASE_URL / BENCH_REDIS_URL, default the local servers), and a load driver.
 */
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A database of its own on the benchmark server, dropped by `drop()`. */
export async function scratchDatabase() {
  const dbName = `credservice_bench_${randomBytes(4).toString('hex')}`;
  await onServer(`create database ${dbName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  return { url: url.toString(), drop: () => onServer(`drop database ${dbName} with (force)`) };
}

async function onServer(sql: string) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(sql);
  await c.end();
}

/**
 * One node of the service in a process of its own (as in production), so that the load driver and
 * the service do not share an event loop.
 */
export async function startBenchService(env: Record<string, string> = {}) {
  const db = await scratchDatabase();
  const adminToken = randomBytes(16).toString('hex');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
      ADMIN_TOKEN: adminToken,
      KEY_ENCRYPTION_KEY: 'bench',
      LOG_LEVEL: 'error',
      DATABASE_POOL_MAX: '10',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; ; i++) {
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 240) throw new Error('the service did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    pid: child.pid,
    baseUrl,
    issuerUrl: baseUrl,
    databaseUrl: db.url,
    admin: createAdminClient({ baseUrl, token: adminToken }),
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await db.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export interface Figure {
  name: string;
  operations: number;
  concurrency: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
}

/** Runs `op` `total` times with `concurrency` in flight; reports throughput and latency percentiles. */
export async function measure(
  name: string,
  total: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
): Promise<Figure> {
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

/** Fails a benchmark loudly when an operation does not do what it measures. */
export function expectStatus(res: { status: number }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}`);
}

/** A tenant for benchmarks, with the mandator credentials need. */
export const benchTenant = (id: string, delivery: 'email' | 'direct' = 'direct') => ({
  id,
  name: 'Bench',
  delivery,
  mandator: {
    organizationIdentifier: 'VATES-B1',
    organization: 'Bench',
    commonName: 'Jane',
    email: 'jane@bench.test',
    country: 'ES',
  },
});
