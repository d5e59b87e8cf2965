import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { inject } from 'vitest';
import { createAdminClient } from '../../clients/integrator/src/index.js';
import { loadConfig } from '../../server/config.js';
import { type RunningService, startService } from '../../server/service.js';
import { freePort } from './spawned-service.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** Rate limits far above what a test file sends; the rate limit tests set their own. */
export const GENEROUS_RATE_LIMITS = {
  RATE_LIMIT_ADDRESS_PER_MINUTE: '1000000',
  RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
  RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000000',
  RATE_LIMIT_TX_CODE_FAILURES_PER_HOUR: '1000000',
  RATE_LIMIT_ADMIN_PER_MINUTE: '1000000',
  RATE_LIMIT_TENANT_PER_MINUTE: '1000000',
};

export interface TestService {
  service: RunningService;
  baseUrl: string;
  adminToken: string;
  admin: ReturnType<typeof createAdminClient>;
  db: TestDatabase;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The real service in this process, on its own database and queue prefix, with PostgreSQL and Redis
 * (REDIS_URL can be turned off with `redis: false` to exercise the in-process runner).
 */
export async function startTestService(
  opts: { env?: Record<string, string>; redis?: boolean; db?: TestDatabase } = {},
): Promise<TestService> {
  const db = opts.db ?? (await createTestDatabase());
  const adminToken = randomBytes(24).toString('base64url');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-test-'));
  // A known port, so that PUBLIC_URL (in offers, metadata, status list URIs) is the real address.
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    DATABASE_POOL_MAX: '5',
    ADMIN_TOKEN: adminToken,
    KEY_ENCRYPTION_KEY: 'test-key-encryption-key',
    QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}`,
    OUTBOX_POLL_MS: '200',
    JOB_BACKOFF_MS: '100',
    LOG_LEVEL: 'silent',
    // Everything runs on 127.0.0.1 (trusted-issuer stubs, audit sinks), and test files send bursts
    // from one address: the guarded fetch may reach it, and the limits sit far above the bursts.
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
    ...GENEROUS_RATE_LIMITS,
    ...(opts.redis === false ? {} : { REDIS_URL: inject('redisUrl') }),
    ...opts.env,
  };
  const service = await startService(loadConfig(env), pino({ level: env.LOG_LEVEL ?? 'silent' }));
  const baseUrl = `http://127.0.0.1:${service.port}`;
  return {
    service,
    baseUrl,
    adminToken,
    admin: createAdminClient({ baseUrl, token: adminToken }),
    db,
    env,
    async stop() {
      await service.stop();
      if (!opts.db) await db.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const acmeTenant = (id = `acme-${randomBytes(3).toString('hex')}`) => ({
  id,
  name: 'ACME Corp',
  delivery: 'email' as const,
  mandator: {
    organizationIdentifier: 'VATES-B12345678',
    organization: 'ACME Corp',
    commonName: 'Jane Doe',
    email: 'jane.doe@acme.test',
    country: 'ES',
  },
});
