import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../server/config.js';
import type { Signer } from '../server/keys/signer.js';
import type { Topic } from '../server/outbox/outbox.js';
import type { MailTransport } from './mail/mail-transport.js';

/** What a job processor is given: a fresh EntityManager of its own, and the services it may use. */
export interface JobContext {
  em: EntityManager;
  config: Config;
  logger: Logger;
  signer: Signer;
  mail: MailTransport;
}

/** Runs one job. It must be idempotent: a job can run again after a crash or a lost acknowledgement. */
export type Processor = (payload: Record<string, string>, ctx: JobContext) => Promise<void>;

export type Processors = Partial<Record<Topic, Processor>>;

export interface JobMessage {
  id: string;
  topic: Topic;
  payload: Record<string, string>;
  attempts: number;
}
