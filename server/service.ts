import type { Server } from 'node:http';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { scheduleAuditExport } from '../workers/audit-export/audit-export-schedule.js';
import { scheduleAuditSealing } from '../workers/audit-seal/audit-seal-schedule.js';
import { bullMqDispatcher } from '../workers/bullmq-dispatcher.js';
import { inProcessDispatcher } from '../workers/in-process-dispatcher.js';
import type { JobDispatcher } from '../workers/job-dispatcher.js';
import { fileTransport, smtpTransport } from '../workers/mail/mail-transport.js';
import { listenForOutbox } from '../workers/outbox-listener.js';
import { processors } from '../workers/processors.js';
import { scheduleStatusListPublishing } from '../workers/status-list/status-list-schedule.js';
import { scheduleTrustListRefresh } from '../workers/trust-lists/trust-list-schedule.js';
import { createApp } from './app.js';
import type { AppContext } from './app-context.js';
import { startCacheInvalidation } from './cache/invalidation-listener.js';
import type { Config } from './config.js';
import { ensureBuiltinConfigurations } from './credential-configurations/credential-configuration-registry.js';
import { PayloadValidator } from './credential-configurations/payload-validator.js';
import { sharedState } from './ephemeral/shared-state.js';
import { listenHttp } from './http/http-server.js';
import { scheduleIdempotencyExpiry } from './idempotency/expire-idempotency-keys.js';
import { OfferCodes } from './issuance/offer-codes.js';
import { DEVELOPMENT_KEY_ENCRYPTION_KEY, KeyEncryption } from './keys/key-encryption.js';
import { KeyStore } from './keys/key-store.js';
import { openKeyVaults } from './keys/open-key-vaults.js';
import { createLogger } from './logger.js';
import { listenMetrics } from './metrics/metrics-server.js';
import { metricsOf } from './metrics/service-metrics.js';
import { scheduleRefreshFamilySweep } from './oid4vci/refresh/sweep-refresh-families.js';
import { verifierServices } from './oid4vp/assemble-verifier.js';
import { startEmbeddedPostgres } from './persistence/embedded/embedded-postgres.js';
import { migrate, openOrm } from './persistence/orm.js';
import { poolSql } from './persistence/sql.js';
import { listReaders } from './trust/lists/list-readers.js';
import { trustServices } from './trust/trust-services.js';
import { scheduleRedirectDeadlines } from './verification/fail-unfollowed-redirects.js';
import { localSessionEvents, redisSessionEvents } from './verification/session-events.js';

export interface RunningService {
  context: AppContext;
  /** The bound HTTP port when this node serves HTTP. */
  port?: number;
  stop(): Promise<void>;
}

/**
 * Starts one node: database (an embedded PostgreSQL server when DATABASE_URL is unset) and migrations, keys,
 * jobs (BullMQ when REDIS_URL is set, else in-process) and, unless ROLE=worker, HTTP.
 */
export async function startService(
  config: Config,
  logger: Logger = createLogger(config.LOG_LEVEL, config.LOG_FORMAT),
): Promise<RunningService> {
  const embedded = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(config.dataDir, logger);
  const dbUrl = config.DATABASE_URL ?? (embedded?.url as string);
  if (embedded)
    logger.warn({ dir: embedded.dir }, 'DATABASE_URL is not set: using an embedded PostgreSQL server');

  const orm = await openOrm({ url: dbUrl, poolMax: config.DATABASE_POOL_MAX });
  const applied = await migrate(orm, dbUrl);
  // Tenants, tokens, keys, configurations: cached per node, invalidated on every node by LISTEN/NOTIFY.
  const caches = await startCacheInvalidation(orm, dbUrl, logger);
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');

  if (!config.KEY_ENCRYPTION_KEY) {
    // With KEY_STORE=pkcs11 the signing keys are in the token, but other secrets are still sealed.
    const sealed =
      config.KEY_STORE === 'pkcs11' ? 'secrets (encryption keys, client secrets)' : 'signing keys';
    logger.warn(
      `!!! KEY_ENCRYPTION_KEY is not set: ${sealed} are encrypted with a built-in development key, ` +
        'which is as good as storing them in clear. Set KEY_ENCRYPTION_KEY in any real deployment. !!!',
    );
  }
  const secret = config.KEY_ENCRYPTION_KEY ?? DEVELOPMENT_KEY_ENCRYPTION_KEY;
  const sealing = new KeyEncryption(secret);
  // KEY_STORE=pkcs11: logged in to the token now, or the start stops here naming the setting.
  const vaults = await closingOnFailure(
    () => openKeyVaults(config, sealing, logger),
    async () => {
      await caches.stop();
      await orm.close();
      await embedded?.stop();
    },
  );
  const keys = new KeyStore(orm, vaults, {
    names: { issuerUrl: config.issuerUrl, verifierUrl: config.verifierUrl, organization: config.ISSUER_NAME },
    logger,
  });
  await closingOnFailure(
    () => keys.ensureKeys(),
    async () => {
      keys.stop();
      vaults.close();
      await caches.stop();
      await orm.close();
      await embedded?.stop();
    },
  );
  await ensureBuiltinConfigurations(orm.em.fork());
  const issuance = {
    signer: keys,
    validator: new PayloadValidator(),
    codes: new OfferCodes(secret),
    issuerUrl: config.issuerUrl,
    offerTtlSeconds: config.OFFER_TTL_SECONDS,
  };

  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false })
    : undefined;
  if (!redis) logger.warn('REDIS_URL is not set: jobs run in-process from the outbox table');
  // ioredis reconnects by itself; an outage is reported (and /readyz fails) rather than thrown.
  let redisDown = false;
  redis?.on('error', (err: Error) => {
    if (!redisDown) logger.error({ err: err.message }, 'Redis is unreachable; retrying');
    redisDown = true;
  });
  redis?.on('ready', () => {
    if (redisDown) logger.info('Redis is reachable again');
    redisDown = false;
  });

  const mail = config.SMTP_URL
    ? smtpTransport(config.SMTP_URL)
    : fileTransport(path.join(config.dataDir, 'outbox'));
  if (!config.SMTP_URL)
    logger.warn(
      { dir: path.join(config.dataDir, 'outbox') },
      'SMTP_URL is not set: mail is written as .eml files',
    );

  // Made once (it hooks the pool's new connections) and before the jobs, which share it with requests.
  const sql = await poolSql(orm);
  const jobContext = { config, logger, signer: keys, mail, sql };
  const jobOptions = {
    orm,
    processors,
    context: jobContext,
    attempts: config.JOB_ATTEMPTS,
    backoffMs: config.JOB_BACKOFF_MS,
    pollMs: config.OUTBOX_POLL_MS,
  };
  const jobs: JobDispatcher = redis
    ? bullMqDispatcher({ ...jobOptions, redis, prefix: config.QUEUE_PREFIX, consume: config.runsWorkers })
    : inProcessDispatcher({ ...jobOptions, execute: config.runsWorkers });
  await jobs.start();
  const stopListening = await listenForOutbox(dbUrl, () => jobs.kick(), logger);
  const stopSchedule = config.runsWorkers
    ? scheduleAuditExport(orm, config.AUDIT_EXPORT_INTERVAL_MS, logger)
    : () => undefined;
  const stopSealing = config.runsWorkers
    ? scheduleAuditSealing(orm, keys, config.AUDIT_SEAL_INTERVAL_MS, logger)
    : async () => undefined;
  const stopExpiry = config.runsWorkers ? scheduleIdempotencyExpiry(orm, logger) : () => undefined;
  const stopRefreshSweep = config.runsWorkers ? scheduleRefreshFamilySweep(orm, logger) : () => undefined;
  // Status changes are published by worker nodes looking for them, not by an outbox row per change.
  const stopPublishing = config.runsWorkers
    ? scheduleStatusListPublishing(orm, { signer: keys, issuerUrl: config.issuerUrl, logger })
    : async () => undefined;

  const events = redis ? redisSessionEvents(redis) : localSessionEvents();
  const stopRedirectDeadlines = config.runsWorkers
    ? scheduleRedirectDeadlines(orm, events, logger)
    : () => undefined;
  const shared = sharedState(redis, config.QUEUE_PREFIX);
  const trust = trustServices(config, logger, listReaders);
  const verifier = verifierServices(config, keys, sealing, events, shared.ttl, sql, trust);
  const stopTrustLists = config.runsWorkers
    ? scheduleTrustListRefresh(orm, trust, logger)
    : async () => undefined;
  const context: AppContext = {
    verifier,
    config,
    orm,
    sql,
    logger,
    signer: keys,
    keyStore: keys,
    jobs,
    issuance,
    shared,
    ...(redis ? { redis } : {}),
  };
  let server: Server | undefined;
  if (config.runsApi) {
    const app = createApp({ ...context, keys });
    server = await listenHttp(app, config);
  }
  const metricsServer = await listenMetrics(metricsOf(context), config);
  const address = server?.address();
  const port = typeof address === 'object' && address ? address.port : undefined;
  logger.info({ role: config.ROLE, port, jobs: jobs.kind, mail: mail.description }, 'service started');

  return {
    context,
    ...(port !== undefined ? { port } : {}),
    async stop() {
      // Drain: stop accepting connections, let requests in flight finish, then let jobs finish.
      if (server) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await closed;
      }
      stopSchedule();
      stopExpiry();
      stopRefreshSweep();
      stopRedirectDeadlines();
      metricsServer?.close();
      await metricsOf(context).stop();
      await stopSealing();
      await stopPublishing();
      await stopTrustLists();
      await stopListening();
      // With Redis gone, BullMQ would wait for it forever; what it holds is safe in the outbox.
      await settleWithin(jobs.stop(), config.SHUTDOWN_TIMEOUT_MS / 2, () =>
        logger.warn('jobs did not stop in time'),
      );
      await events.close();
      await shared.close();
      mail.close();
      if (redis?.status === 'ready') await redis.quit().catch(() => undefined);
      else redis?.disconnect();
      keys.stop();
      vaults.close();
      await caches.stop();
      await orm.close();
      await embedded?.stop();
      logger.info('service stopped');
    },
  };
}

/** Runs a start step; when it throws, releases what was opened so far, then rethrows. */
async function closingOnFailure<T>(step: () => T | Promise<T>, release: () => Promise<void>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    await release().catch(() => undefined);
    throw err;
  }
}

/** Waits for `p`, but no longer than `ms`; `onTimeout` says so. Shutdown must finish. */
async function settleWithin(p: Promise<unknown>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve();
    }, ms);
  });
  await Promise.race([p.catch(() => undefined), timeout]);
  clearTimeout(timer);
}
