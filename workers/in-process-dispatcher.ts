import type { Orm } from '../server/persistence/orm.js';
import type { JobContext, JobMessage, Processors } from './job-context.js';
import type { JobDispatcher } from './job-dispatcher.js';
import { backoffMs, claimDue, markDead, markDoneBy, markRetry, renewLeases } from './outbox-store.js';
import { Poller } from './poller.js';
import { retryBriefly } from './retry-briefly.js';

export interface InProcessOptions {
  orm: Orm;
  processors: Processors;
  context: Omit<JobContext, 'em'>;
  /** False on api-only nodes: messages then wait in the outbox for a worker node. */
  execute: boolean;
  attempts: number;
  backoffMs: number;
  pollMs: number;
}

const BATCH = 20;
/** Short, and renewed while a job runs: after a crash its rows come due again within this. */
const LEASE_SECONDS = 30;
const RENEW_MS = 10_000;

/**
 * Runs jobs in this process, straight from the outbox table, with the same processors BullMQ would
 * run: retries with exponential backoff, dead-letters after the last try, and survives restarts
 * because the table is the queue. Leases are short and renewed while a job runs, so the jobs of a
 * process that died are taken up again within half a minute of its restart.
 */
export function inProcessDispatcher(o: InProcessOptions): JobDispatcher {
  const { logger } = o.context;
  const running = new Set<string>();
  let renewal: NodeJS.Timeout | undefined;
  const run = async (job: JobMessage) => {
    const processor = o.processors[job.topic];
    const em = o.orm.em.fork();
    const attempt = job.attempts + 1;
    running.add(job.id);
    try {
      if (!processor) throw new Error(`no processor for topic ${job.topic}`);
      const complete = (await processor(job.payload, { ...o.context, em })) ?? markDoneBy(em);
      await retryBriefly(() => complete(job.id));
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      if (attempt >= o.attempts) {
        logger.error(
          { job: job.id, topic: job.topic, attempts: attempt, error },
          'job dead-lettered after last try',
        );
        await markDead(em, job.id, attempt, error);
      } else {
        logger.warn({ job: job.id, topic: job.topic, attempt, error }, 'job failed; will retry');
        await markRetry(em, job.id, attempt, error, new Date(Date.now() + backoffMs(o.backoffMs, attempt)));
      }
    } finally {
      running.delete(job.id);
    }
  };
  const poller = new Poller(
    async () => {
      for (;;) {
        const due = await claimDue(o.orm.em.fork(), BATCH, LEASE_SECONDS);
        await Promise.all(due.map(run));
        if (due.length < BATCH) return;
      }
    },
    o.pollMs,
    (e) => logger.error({ err: e }, 'outbox pass failed'),
  );
  return {
    kind: 'in-process',
    start: async () => {
      if (!o.execute) return;
      poller.start();
      renewal = setInterval(() => {
        renewLeases(o.orm.em.fork(), [...running], LEASE_SECONDS).catch(() => undefined);
      }, RENEW_MS);
      renewal.unref();
    },
    kick: () => poller.kick(),
    stop: async () => {
      clearInterval(renewal);
      await poller.stop();
    },
  };
}
