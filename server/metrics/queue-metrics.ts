import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { TOPICS } from '../outbox/outbox.js';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * With Redis, what each BullMQ queue holds (the outbox gauges show what was not yet handed over).
 * The queues share the service's connection; they are only read here.
 */
export function queueMetrics(
  registry: Registry,
  logger: Logger,
  redis: Redis,
  prefix: string,
): () => Promise<void> {
  const queues = TOPICS.map((topic) => {
    const queue = new Queue(topic, { connection: redis, prefix });
    queue.on('error', () => undefined);
    return { topic, queue };
  });
  new Gauge({
    name: 'credservice_queue_jobs',
    help: 'Jobs in the BullMQ queue of each topic, by state',
    labelNames: ['topic', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      // With Redis down a read would wait for it (the connection retries forever): the scrape must
      // answer, and credservice_dependency_up already says why these samples are missing.
      if (redis.status !== 'ready') return;
      try {
        for (const { topic, queue } of queues) {
          const counts = await queue.getJobCounts(...STATES);
          for (const state of STATES) this.set({ topic, state }, counts[state] ?? 0);
        }
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'queue metrics not read');
      }
    },
  });
  return async () => {
    await Promise.all(queues.map((q) => q.queue.close().catch(() => undefined)));
  };
}
