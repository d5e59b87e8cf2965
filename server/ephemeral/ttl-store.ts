import type { Redis } from 'ioredis';

/**
 * Short-lived state that anonymous requests create (pending sign-ins and their outcomes): it expires
 * by itself, so nothing an attacker sends accumulates in PostgreSQL. Redis when configured, so every
 * node sees it; in this process's memory on the embedded default (one node, no Redis).
 */
export interface TtlStore {
  readonly kind: 'redis' | 'memory';
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets `key` only when it is absent: true when this call set it. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  get(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
}

/** The store cannot be reached (Redis down): what needs it is unavailable for a moment. */
export class TtlStoreUnavailable extends Error {}

/** `redis` should fail fast while disconnected (see failFastRedis) rather than queue commands. */
export function redisTtlStore(redis: Redis, prefix: string): TtlStore {
  const k = (key: string) => `${prefix}:ephemeral:${key}`;
  const call = async <T>(command: () => Promise<T>): Promise<T> => {
    try {
      // Just started or reconnecting: give the connection a moment before failing fast.
      if (redis.status !== 'ready') await readyWithin(redis, 1_000);
      return await command();
    } catch (e) {
      throw new TtlStoreUnavailable(`Redis: ${(e as Error).message}`);
    }
  };
  return {
    kind: 'redis',
    async set(key, value, ttl) {
      await call(() => redis.set(k(key), value, 'EX', ttl));
    },
    setIfAbsent: async (key, value, ttl) =>
      (await call(() => redis.set(k(key), value, 'EX', ttl, 'NX'))) === 'OK',
    get: async (key) => (await call(() => redis.get(k(key)))) ?? undefined,
    async delete(key) {
      await call(() => redis.del(k(key)));
    },
  };
}

const readyWithin = (redis: Redis, ms: number) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });

/**
 * The in-memory store, bounded: past `maxEntries` the oldest entries go first (a Map iterates in
 * insertion order), so a flood costs a fixed amount of memory rather than all of it.
 */
export function memoryTtlStore(maxEntries = 100_000): TtlStore {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const e = entries.get(key);
    if (e && e.expiresAt <= Date.now()) entries.delete(key);
    return e && e.expiresAt > Date.now() ? e : undefined;
  };
  const put = (key: string, value: string, ttl: number) => {
    entries.delete(key);
    entries.set(key, { value, expiresAt: Date.now() + ttl * 1000 });
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
  };
  return {
    kind: 'memory',
    set: async (key, value, ttl) => put(key, value, ttl),
    async setIfAbsent(key, value, ttl) {
      if (live(key)) return false;
      put(key, value, ttl);
      return true;
    },
    get: async (key) => live(key)?.value,
    delete: async (key) => void entries.delete(key),
  };
}
