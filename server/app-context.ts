import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { JobDispatcher } from '../workers/job-dispatcher.js';
import type { Config } from './config.js';
import type { SharedState } from './ephemeral/shared-state.js';
import type { IssuanceServices } from './issuance/create-issuance.js';
import type { KeyStoreStatus } from './keys/key-store-status.js';
import type { Signer } from './keys/signer.js';
import type { Orm } from './persistence/orm.js';
import type { Sql } from './persistence/sql.js';
import type { VerifierServices } from './verification/verifier-services.js';

/** What the HTTP layer and the workers are given at start; nothing reaches for globals. */
export interface AppContext {
  config: Config;
  orm: Orm;
  /** Prepared statements on the ORM's pool, for hot paths that say in one statement what they need. */
  sql: Sql;
  logger: Logger;
  signer: Signer;
  /** Where signing keys are made and whether that store answers: readiness and metrics read it. */
  keyStore: KeyStoreStatus;
  jobs: JobDispatcher;
  issuance: IssuanceServices;
  verifier: VerifierServices;
  /** Present when REDIS_URL is set. */
  redis?: Redis;
  /** Sign-ins in progress and rate limit counters: Redis with a TTL, or memory without Redis. */
  shared: SharedState;
}
