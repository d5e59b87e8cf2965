import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../server/config.js';
import type { Signer } from '../server/keys/signer.js';
import type { Topic } from '../server/outbox/outbox.js';
import type { Sql } from '../server/persistence/sql.js';
import type { MailTransport } from './mail/mail-transport.js';

/** What a job processor is given: a fresh EntityManager of its own, and the services it may use. */
export interface JobContext {
  em: EntityManager;
  /** Named prepared statements on the pool, for processors that say in one statement what they need. */
  sql: Sql;
  config: Config;
  logger: Logger;
  signer: Signer;
  mail: MailTransport;
}

/**
 * Records a finished job's outbox row as done. A processor whose own last write can record that in
 * the same statement returns one (the mail worker marks a message sent and its row done at once);
 * else the dispatcher marks the row done by itself. Either way the dispatcher runs it under
 * retryBriefly, since the work it records has happened.
 */
export type Completion = (outboxId: string) => Promise<void>;

/**
 * Runs one job. It must be idempotent: a job can run again after a crash or a lost acknowledgement.
 * It may resolve to its job's Completion; most resolve to nothing.
 */
export type Processor = (
  payload: Record<string, string>,
  ctx: JobContext,
) => Promise<void> | Promise<Completion | undefined>;

export type Processors = Partial<Record<Topic, Processor>>;

export interface JobMessage {
  id: string;
  topic: Topic;
  payload: Record<string, string>;
  attempts: number;
}
