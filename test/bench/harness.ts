import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createAdminClient } from '../../clients/integrator/src/index.js';
import { compiledService } from './compiled-service.js';
import { spawnProbed } from './probed-process.js';

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

const RATE_LIMITS = [
  'RATE_LIMIT_ADDRESS_PER_MINUTE',
  'RATE_LIMIT_TOKEN_PER_MINUTE',
  'RATE_LIMIT_SIGN_IN_PER_MINUTE',
  'RATE_LIMIT_TX_CODE_FAILURES_PER_HOUR',
  'RATE_LIMIT_ADMIN_PER_MINUTE',
  'RATE_LIMIT_TENANT_PER_MINUTE',
];

export interface BenchServiceOptions {
  env?: Record<string, string>;
  /** No DATABASE_URL: the service starts its embedded database, as `npm start` does out of the box. */
  embedded?: boolean;
}

export type BenchService = Awaited<ReturnType<typeof startBenchService>>;

/**
 * One node of the service in a process of its own (as in production), so that the load driver and
 * the service do not share an event loop; the probe counts its SQL statements and CPU time.
 */
export async function startBenchService(options: BenchServiceOptions = {}) {
  const db = options.embedded ? undefined : await scratchDatabase();
  const adminToken = randomBytes(16).toString('hex');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-bench-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
    ADMIN_TOKEN: adminToken,
    KEY_ENCRYPTION_KEY: 'bench',
    LOG_LEVEL: 'error',
    DATABASE_POOL_MAX: '10',
    // One load driver is one client address: limits stay on (their cost is part of every request) but
    // far above what it sends.
    ...Object.fromEntries(RATE_LIMITS.map((name) => [name, '1000000000'])),
    ...options.env,
  };
  delete env.DATABASE_URL;
  if (db) env.DATABASE_URL = db.url;
  // As `npm start` runs it: compiled JavaScript, with its flags and environment (MALLOC_ARENA_MAX).
  const compiled = await compiledService();
  const service = spawnProbed(compiled.main, { ...compiled.env, ...env }, compiled.nodeArgs, compiled.probe);
  for (let i = 0; ; i++) {
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 480 || service.child.exitCode !== null) throw new Error('the service did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  const databaseUrl = db?.url ?? (await embeddedDatabaseUrl(service));
  return {
    pid: service.pid,
    baseUrl,
    issuerUrl: baseUrl,
    databaseUrl,
    embedded: !db,
    probe: service.probe,
    profile: service.profile,
    adminToken,
    admin: createAdminClient({ baseUrl, token: adminToken }),
    async stop() {
      await service.stop();
      await db?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The embedded server's address, as the service's own `pg` clients use it. */
async function embeddedDatabaseUrl(service: ReturnType<typeof spawnProbed>): Promise<string> {
  const [first] = (await service.probe()).databases;
  if (!first) throw new Error('the service has not connected to a database');
  const auth = `${encodeURIComponent(first.user)}${first.password ? `:${encodeURIComponent(first.password)}` : ''}`;
  return `postgresql://${auth}@${first.host}:${first.port}/${first.database}`;
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

/**
 * Starts `op` at a steady `perSecond` whatever the answers take (open loop), as clients arriving on
 * their own would: the p99 here is the latency at that load, not at saturation.
 */
export async function measureAtRate(
  name: string,
  total: number,
  perSecond: number,
  op: (i: number) => Promise<unknown>,
): Promise<Figure> {
  const latencies: number[] = [];
  const start = performance.now();
  const running: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push(
      op(i).then(() => {
        latencies.push(performance.now() - due);
      }),
    );
  }
  await Promise.all(running);
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    operations: total,
    concurrency: 0,
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
