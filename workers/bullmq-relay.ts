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
 * row over twice adds one job). A row handed over before and due again is checked against its job:
 * completed or dead-lettered there but not recorded here (the database was away) is recorded now; a
 * job that no longer exists is added again; anything else waits for the next check. While Redis
 * does not answer, rows stay in the table and nothing waits on it.
 */
export async function relayPass(em: EntityManager, o: RelayOptions): Promise<void> {
  if (o.redis.status !== 'ready') return;
  for (;;) {
    const due = await claimDue(em, BATCH, DISPATCH_CHECK_SECONDS);
    for (const [i, m] of due.entries()) {
      const queue = o.queues.get(m.topic);
      if (!queue) continue;
      try {
        if (m.redelivery) {
          const state = await within(queue.getJobState(m.id));
          if (state === 'completed') await markDone(em, m.id);
          if (state === 'failed') {
            const job = await within(queue.getJob(m.id));
            await markDead(em, m.id, job?.attemptsMade ?? m.attempts, job?.failedReason ?? 'failed');
          }
          if (state !== 'unknown') continue;
          o.logger.warn(
            { job: m.id, topic: m.topic },
            'queued job is gone (Redis lost it); handing it over again',
          );
        }
        await within(
          queue.add(
            m.topic,
            { outboxId: m.id, payload: m.payload },
            {
              jobId: m.id,
              attempts: o.attempts,
              backoff: { type: 'exponential', delay: o.backoffMs },
              removeOnComplete: { age: 86_400 },
              removeOnFail: { age: 7 * 86_400 },
            },
          ),
        );
      } catch (e) {
        // Redis went away mid-pass: give the rest back at once instead of waiting out their leases.
        const retryAt = new Date(Date.now() + 2_000);
        for (const rest of due.slice(i)) await markRetry(em, rest.id, rest.attempts, String(e), retryAt);
        return;
      }
    }
    if (due.length < BATCH) return;
  }
}
