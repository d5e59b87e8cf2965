import type { Redis } from 'ioredis';
import { memoryTtlStore, redisTtlStore, type TtlStore } from './ttl-store.js';

/**
 * State the edge shares between nodes: anonymous sign-ins (TTL store) and rate limit counters.
 * With Redis, a connection of its own that fails at once while Redis is down instead of queueing
 * commands, so a request never waits on an outage: rate limits fall back to memory and sign-ins
 * say "try again". Without Redis (the embedded default, one node), memory.
 */
export interface SharedState {
  ttl: TtlStore;
  /** Absent on the embedded default. */
  redis?: Redis;
  prefix: string;
  close(): Promise<void>;
}

export function sharedState(redis: Redis | undefined, prefix: string): SharedState {
  if (!redis) return { ttl: memoryTtlStore(), prefix, close: async () => undefined };
  const fast = redis.duplicate({
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1_000,
    connectionName: 'credservice-edge',
  });
  // The main connection reports outages; this one just reconnects.
  fast.on('error', () => undefined);
  return {
    ttl: redisTtlStore(fast, prefix),
    redis: fast,
    prefix,
    close: async () => fast.disconnect(),
  };
}
