import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { SharedState } from '../ephemeral/shared-state.js';

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A fixed-window counter per key, shared by every node through Redis (memory without Redis). */
export interface Limiter {
  consume(key: string): Promise<Verdict>;
  /** Whether `key` may go on, without counting anything. */
  peek(key: string): Promise<Verdict>;
  /** Gives a point back (a request that turned out fine). */
  refund(key: string): Promise<void>;
}

const denied = (r: RateLimiterRes): Verdict => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(r.msBeforeNext / 1000)),
});

/**
 * `points` requests per `seconds` per key. While Redis is unreachable the counters of this node's
 * memory take over (rate-limiter-flexible's insurance limiter): limits get looser by the number of
 * nodes for the outage, requests are never refused or delayed because of it.
 */
export function createLimiter(shared: SharedState, name: string, points: number, seconds: number): Limiter {
  const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: seconds });
  const limiter = shared.redis
    ? new RateLimiterRedis({
        storeClient: shared.redis,
        keyPrefix: `${shared.prefix}:rate:${name}`,
        points,
        duration: seconds,
        insuranceLimiter: memory,
        rejectIfRedisNotReady: true,
      })
    : memory;
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return { allowed: true };
      } catch (e) {
        if (e instanceof RateLimiterRes) return denied(e);
        return { allowed: true };
      }
    },
    async peek(key) {
      const r = await limiter.get(key).catch(() => null);
      return r && r.consumedPoints >= points ? denied(r) : { allowed: true };
    },
    async refund(key) {
      await limiter.reward(key, 1).catch(() => undefined);
    },
  };
}
