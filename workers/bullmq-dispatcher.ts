import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { TOPICS, type Topic } from '../server/outbox/outbox.js';
import type { Orm } from '../server/persistence/orm.js';
import { type JobData, relayPass } from './bullmq-relay.js';
import type { JobContext, Processors } from './job-context.js';
import type { JobDispatcher } from './job-dispatcher.js';
import { markDead, markDoneBy } from './outbox-store.js';
import { Poller } from './poller.js';
import { retryBriefly } from './retry-briefly.js';

export interface BullMqOptions {
  orm: Orm;
  redis: Redis;
  prefix: string;
  processors: Processors;
  context: Omit<JobContext, 'em'>;
  /** True on worker nodes: consume the queues. Every node relays the outbox into them. */
  consume: boolean;
  attempts: number;
  backoffMs: number;
  pollMs: number;
}

/** A job's lock: renewed every half of it while the job runs, lost this long after its worker died. */
const JOB_LOCK_MS = 10_000;

/**
 * Relays outbox rows into one BullMQ queue per topic (bullmq-relay.ts); worker nodes consume the
 * queues, retry with exponential backoff, and dead-letter (outbox status `dead` plus an error log
 * line) after the last try. A worker killed mid-job loses its lock within seconds (short lock, quick
 * stalled-job check), so another worker (or its restart) takes the job over promptly.
 */
export function bullMqDispatcher(o: BullMqOptions): JobDispatcher {
  const { logger } = o.context;
  const connection = o.redis;
  const queues = new Map<Topic, Queue<JobData>>(
    TOPICS.map((t) => {
      const queue = new Queue<JobData>(t, { connection, prefix: o.prefix });
      // Redis outages are logged once by the service's connection; the relay retries on its own.
      queue.on('error', () => undefined);
      return [t, queue];
    }),
  );
  const workers: Worker<JobData>[] = [];
  const relayOptions = { queues, redis: o.redis, logger, attempts: o.attempts, backoffMs: o.backoffMs };
  const relay = new Poller(
    () => relayPass(o.orm.em.fork(), relayOptions),
    o.pollMs,
    (e) => logger.error({ err: e }, 'outbox relay pass failed'),
  );

  const process = async (job: Job<JobData>) => {
    const processor = o.processors[job.name as Topic];
    if (!processor) throw new Error(`no processor for topic ${job.name}`);
    const em = o.orm.em.fork();
    const complete = (await processor(job.data.payload, { ...o.context, em })) ?? markDoneBy(em);
    await retryBriefly(() => complete(job.data.outboxId));
  };

  const onFailed = async (job: Job<JobData> | undefined, err: Error) => {
    if (!job) return;
    const em = o.orm.em.fork();
    const last = job.attemptsMade >= (job.opts.attempts ?? 1);
    if (last) {
      logger.error(
        { job: job.id, topic: job.name, attempts: job.attemptsMade, error: err.message },
        'job dead-lettered after last try',
      );
      await markDead(em, job.data.outboxId, job.attemptsMade, err.message);
    } else {
      logger.warn(
        { job: job.id, topic: job.name, attempt: job.attemptsMade, error: err.message },
        'job failed; will retry',
      );
    }
  };

  return {
    kind: 'bullmq',
    async start() {
      relay.start();
      if (!o.consume) return;
      for (const topic of TOPICS) {
        const worker = new Worker<JobData>(topic, process, {
          connection,
          prefix: o.prefix,
          concurrency: 8,
          lockDuration: JOB_LOCK_MS,
          stalledInterval: JOB_LOCK_MS / 2,
          maxStalledCount: 3,
        });
        worker.on(
          'failed',
          (job, err) =>
            void onFailed(job, err).catch((e) => logger.error({ err: e }, 'failed to record job failure')),
        );
        worker.on('error', (err) => logger.error({ err }, `worker ${topic} error`));
        workers.push(worker);
      }
    },
    kick: () => relay.kick(),
    async stop() {
      await relay.stop();
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
