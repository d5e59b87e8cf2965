import type { EntityManager } from '@mikro-orm/postgresql';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Topic } from '../server/outbox/outbox.js';
import { claimDue, markDead, markDone, markRetry } from './outbox-store.js';

export interface JobData {
  outboxId: string;
  payload: Record<string, string>;
}

export interface RelayOptions {
  queues: Map<Topic, Queue<JobData>>;
  redis: Redis;
  logger: Logger;
  attempts: number;
  backoffMs: number;
}

const BATCH = 100;
/**
 * How long a handed-over row waits before the relay looks again whether its job still exists. Short,
 * so that a job Redis lost (restarted without its data) is handed over again within seconds, not at
 * the end of a long lease; a job still waiting or running just gets the next lease.
 */
export const DISPATCH_CHECK_SECONDS = 10;
const REDIS_CALL_MS = 2_000;

class RedisAway extends Error {}

const within = async <T>(p: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisAway('Redis did not answer')), REDIS_CALL_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * One relay pass: outbox rows that are due go to BullMQ (the outbox id is the job id, so handing a
 * row over twice adds one job), those claimed for the first time in one pipelined `addBulk` per
 * topic rather than one round trip each. A row handed over before and due again is checked against
 * its job: completed or dead-lettered there but not recorded here (the database was away) is
 * recorded now; a job that no longer exists is added again; anything else waits for the next check.
 * While Redis does not answer, rows stay in the table and nothing waits on it.
 */
export async function relayPass(em: EntityManager, o: RelayOptions): Promise<void> {
  if (o.redis.status !== 'ready') return;
  for (;;) {
    const due = await claimDue(em, BATCH, DISPATCH_CHECK_SECONDS);
    const handOver: Due[] = [];
    try {
      for (const m of due) if (!m.redelivery || (await stillToHandOver(em, o, m))) handOver.push(m);
      await addJobs(o, handOver);
    } catch (e) {
      // Redis went away mid-pass: give the rows back at once instead of waiting out their leases.
      const retryAt = new Date(Date.now() + 2_000);
      for (const m of due) await markRetry(em, m.id, m.attempts, String(e), retryAt);
      return;
    }
    if (due.length < BATCH) return;
  }
}

type Due = Awaited<ReturnType<typeof claimDue>>[number];

/** A row handed over before: its job's outcome recorded if it has one; true when the job is gone. */
async function stillToHandOver(em: EntityManager, o: RelayOptions, m: Due): Promise<boolean> {
  const queue = o.queues.get(m.topic);
  if (!queue) return false;
  const state = await within(queue.getJobState(m.id));
  if (state === 'completed') await markDone(em, m.id);
  if (state === 'failed') {
    const job = await within(queue.getJob(m.id));
    await markDead(em, m.id, job?.attemptsMade ?? m.attempts, job?.failedReason ?? 'failed');
  }
  if (state !== 'unknown') return false;
  o.logger.warn({ job: m.id, topic: m.topic }, 'queued job is gone (Redis lost it); handing it over again');
  return true;
}

/** The rows' jobs, one pipelined addBulk per topic. */
async function addJobs(o: RelayOptions, rows: Due[]): Promise<void> {
  const byTopic = new Map<Topic, Due[]>();
  for (const m of rows) byTopic.set(m.topic, [...(byTopic.get(m.topic) ?? []), m]);
  for (const [topic, messages] of byTopic) {
    const queue = o.queues.get(topic);
    if (!queue) continue;
    await within(
      queue.addBulk(
        messages.map((m) => ({
          name: m.topic,
          data: { outboxId: m.id, payload: m.payload },
          opts: {
            jobId: m.id,
            attempts: o.attempts,
            backoff: { type: 'exponential' as const, delay: o.backoffMs },
            removeOnComplete: { age: 86_400 },
            removeOnFail: { age: 7 * 86_400 },
          },
        })),
      ),
    );
  }
}
