import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { appendAuditEvent } from '../../server/audit/audit-log.js';
import { openOrm } from '../../server/persistence/orm.js';

/**
 * Sealing lag under a burst: EVENTS audit events appended at once on one tenant (real
 * appendAuditEvent, from a driver process with its own pool), while the service, in a process of
 * its own, seals them. Reported: how long the burst took to commit, how long after its last commit
 * everything was sealed, and each event's lag from its commit to being seen sealed (polled every
 * 10 ms). Run alone: `node --import tsx test/bench/audit-sealing.bench.ts [events] [concurrency]`.
 */
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function auditSealingBench(events = 1000, concurrency = 50) {
  return {
    bullmq: await burst({ REDIS_URL: redisUrl }, events, concurrency),
    'in-process': await burst({}, events, concurrency),
  };
}

async function burst(env: Record<string, string>, events: number, concurrency: number) {
  const node = await startNode(env);
  const orm = await openOrm({ url: node.dbUrl, poolMax: concurrency });
  const sql = new pg.Client({ connectionString: node.dbUrl });
  await sql.connect();
  try {
    const tenantId = `bench-${randomBytes(3).toString('hex')}`;
    await node.admin('POST', '/admin/v1/tenants', { id: tenantId, name: 'Bench', delivery: 'direct' });
    const committedAt = new Map<string, number>();
    const sealedAt = new Map<string, number>();
    let polling = true;
    const poller = (async () => {
      let last = 0;
      while (polling || sealedAt.size < committedAt.size) {
        const { rows } = await sql.query<{ seq: number; subject: string }>(
          'select seq, subject from audit_event where tenant_id = $1 and seq > $2 order by seq',
          [tenantId, last],
        );
        const now = performance.now();
        for (const r of rows) sealedAt.set(r.subject, now);
        last = rows.at(-1)?.seq ?? last;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();

    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < events) {
          const subject = `event-${next++}`;
          await orm.em
            .fork()
            .transactional((tx) =>
              appendAuditEvent(tx, { tenantId, actor: 'bench', action: 'bench.burst', subject }),
            );
          committedAt.set(subject, performance.now());
        }
      }),
    );
    const lastCommit = performance.now();
    polling = false;
    await poller;
    const allSealed = Math.max(...sealedAt.values());
    const lags = [...committedAt].map(([s, t]) => (sealedAt.get(s) ?? Number.NaN) - t).sort((a, b) => a - b);
    const at = (p: number) =>
      Math.round(lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))] ?? 0);
    const verify = await node.admin('GET', `/admin/v1/tenants/${tenantId}/audit-events/verification`);
    return {
      events,
      concurrency,
      burst_commit_ms: Math.round(lastCommit - start),
      appends_per_second: Math.round(events / ((lastCommit - start) / 1000)),
      sealed_after_last_commit_ms: Math.round(allSealed - lastCommit),
      lag_p50_ms: at(50),
      lag_p99_ms: at(99),
      lag_max_ms: at(100),
      verified: verify,
    };
  } finally {
    await sql.end();
    await orm.close();
    await node.stop();
  }
}

async function startNode(extra: Record<string, string>) {
  const dbName = `credservice_bench_${randomBytes(4).toString('hex')}`;
  await onServer(`create database ${dbName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const token = randomBytes(24).toString('hex');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-bench-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    DATABASE_URL: dbUrl,
    ADMIN_TOKEN: token,
    KEY_ENCRYPTION_KEY: 'bench',
    LOG_LEVEL: 'error',
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
    AUDIT_EXPORT_INTERVAL_MS: '0',
    ...extra,
  };
  if (!extra.REDIS_URL) delete env.REDIS_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    if (
      await fetch(`${baseUrl}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 240 || child.exitCode !== null) throw new Error('the service did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    dbUrl,
    async admin(method: string, p: string, body?: unknown) {
      const res = await fetch(`${baseUrl}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}`);
      return res.json();
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await onServer(`drop database ${dbName} with (force)`);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function onServer(statement: string) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(statement);
  await c.end();
}

if (process.argv[1]?.endsWith('audit-sealing.bench.ts')) {
  const [events, concurrency] = process.argv.slice(2).map(Number);
  console.log(
    JSON.stringify(await auditSealingBench(events || undefined, concurrency || undefined), null, 2),
  );
  process.exit(0);
}
