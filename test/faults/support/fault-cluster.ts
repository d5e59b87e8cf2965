import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSmtpCatcher } from '../../support/smtp-catcher.js';
import { freePort } from '../../support/spawned-service.js';
import { GENEROUS_RATE_LIMITS } from '../../support/test-service.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';
import { type PrivateRedis, startPrivateRedis } from './private-redis.js';
import { type ServiceProcess, serviceProcess } from './service-process.js';

/**
 * Everything the fault test breaks, all its own: a PostgreSQL server, a Redis server, an SMTP server
 * in this process, and the service as two processes, an api node and a worker node.
 */
export interface FaultCluster {
  dir: string;
  baseUrl: string;
  adminToken: string;
  exportDir: string;
  pg: PrivatePostgres;
  redis: PrivateRedis;
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  api: ServiceProcess;
  worker: ServiceProcess;
  close(): Promise<void>;
}

export async function startFaultCluster(): Promise<FaultCluster> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-faults-'));
  // PostgreSQL runs as its own user (createPostgresUser) and must reach its directory inside.
  await fs.chmod(dir, 0o755);
  const exportDir = path.join(dir, 'audit-export');
  const [pg, redis, smtp, port] = await Promise.all([
    startPrivatePostgres(path.join(dir, 'postgres')),
    startPrivateRedis(),
    startSmtpCatcher(),
    freePort(),
  ]);
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminToken = randomBytes(32).toString('hex');
  const env = (role: string): Record<string, string> => ({
    ROLE: role,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: path.join(dir, role),
    DATABASE_URL: pg.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'faults',
    SMTP_URL: smtp.url,
    ADMIN_TOKEN: adminToken,
    KEY_ENCRYPTION_KEY: 'fault-test-key-encryption-key',
    OUTBOX_POLL_MS: '200',
    JOB_BACKOFF_MS: '500',
    AUDIT_EXPORT_DIR: exportDir,
    AUDIT_EXPORT_INTERVAL_MS: '1000',
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
    // The worker says when it started (info); the api's request lines would only fill the log.
    LOG_LEVEL: role === 'worker' ? 'info' : 'warn',
    ...GENEROUS_RATE_LIMITS,
  });
  const ready = async () => (await fetch(`${baseUrl}/readyz`)).status === 200;
  const api = serviceProcess('api', env('api'), path.join(dir, 'api.log'), ready);
  const worker = serviceProcess('worker', env('worker'), path.join(dir, 'worker.log'));
  await api.start();
  await worker.start();
  return {
    dir,
    baseUrl,
    adminToken,
    exportDir,
    pg,
    redis,
    smtp,
    api,
    worker,
    async close() {
      await Promise.all([api.stop(), worker.stop()]);
      await redis.stop();
      await pg.close();
      await smtp.close();
      if (!process.env.KEEP_FAULT_DIR) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
