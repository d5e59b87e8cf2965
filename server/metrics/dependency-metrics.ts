import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';

const PROBE_MS = 1_000;

const within = <T>(p: Promise<T>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), PROBE_MS)),
  ]);

/**
 * `credservice_dependency_up{dependency}`: 1 while the database (a `select 1` within a second) and
 * Redis (the client's own connection state, no round trip) answer, else 0. /readyz stays 200 while
 * Redis is down (requests are served, jobs wait); this is where that degradation shows.
 */
export function dependencyMetrics(registry: Registry, em: () => EntityManager, redis?: Redis): void {
  new Gauge({
    name: 'credservice_dependency_up',
    help: 'Whether a dependency answers (1) or not (0): database, and redis when configured',
    labelNames: ['dependency'],
    registers: [registry],
    async collect() {
      const database = await within(em().execute('select 1')).then(
        () => 1,
        () => 0,
      );
      this.set({ dependency: 'database' }, database);
      if (redis) this.set({ dependency: 'redis' }, redis.status === 'ready' ? 1 : 0);
    },
  });
}
