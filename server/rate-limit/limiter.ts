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
  const consumeOne = async (key: string): Promise<Verdict> => {
    try {
      await limiter.consume(key);
      return { allowed: true };
    } catch (e) {
      if (e instanceof RateLimiterRes) return denied(e);
      return { allowed: true };
    }
  };
  const leases = leasing(points);
  const takeLease = async (key: string): Promise<Verdict> => {
    try {
      const r = await limiter.consume(key, leases.size);
      leases.hold(key, r.msBeforeNext);
      return { allowed: true };
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) return { allowed: true };
      // Too few points left for a lease: give it back and count this one request alone, so the
      // limit's last requests are let through exactly as without leases.
      await limiter.reward(key, leases.size).catch(() => undefined);
      const verdict = e.consumedPoints - leases.size >= points ? denied(e) : await consumeOne(key);
      if (!verdict.allowed) leases.refuse(key, verdict);
      return verdict;
    }
  };
  // One lease taken at a time per key: requests that find none while one is being taken wait for it
  // and spend from it, instead of each taking a lease of its own (with 8 at once, 8 Redis commands
  // and 7 leases overwritten unspent, their points counted against the key all the same).
  const taking = new Map<string, Promise<Verdict>>();
  const consume = async (key: string): Promise<Verdict> => {
    if (leases.spend(key)) return { allowed: true };
    if (leases.size === 1) return consumeOne(key);
    const refused = leases.refused(key);
    if (refused) return refused;
    const pending = taking.get(key);
    if (pending) return pending.then(() => consume(key));
    const taken = takeLease(key).finally(() => taking.delete(key));
    taking.set(key, taken);
    return taken;
  };
  return {
    consume,
    async peek(key) {
      const r = await limiter.get(key).catch(() => null);
      return r && r.consumedPoints >= points ? denied(r) : { allowed: true };
    },
    async refund(key) {
      await limiter.reward(key, 1).catch(() => undefined);
    },
  };
}

/**
 * Points taken from the shared counter a lease at a time: a node counts `size` requests of a key
 * in Redis with one command and lets them through from memory until they are spent or the window
 * ends, instead of one round trip per request (which was a tenth of a request's CPU). A lease's
 * unspent points stay counted, so the limit is never exceeded; with several nodes a key may be
 * refused at most (nodes - 1) x size requests early in a window. A key over its limit is refused
 * from memory for up to a second, so a flood costs Redis nothing either. Small limits (under 40 a
 * window) lease one point, i.e. count every request in Redis as before.
 */
function leasing(points: number) {
  const size = Math.max(1, Math.min(50, Math.floor(points / 20)));
  const held = new Map<string, { left: number; until: number }>();
  const refusals = new Map<string, { verdict: Verdict; until: number }>();
  return {
    size,
    /** A key over its limit is refused from memory for a second (or less: the window's rest). */
    refused(key: string): Verdict | undefined {
      const refusal = refusals.get(key);
      if (refusal && refusal.until > Date.now()) return refusal.verdict;
      refusals.delete(key);
      return undefined;
    },
    refuse(key: string, verdict: Verdict) {
      const retry = verdict.allowed ? 0 : verdict.retryAfterSeconds;
      if (refusals.size >= 10_000) refusals.clear();
      refusals.set(key, { verdict, until: Date.now() + Math.min(1000, retry * 1000) });
    },
    spend(key: string): boolean {
      const lease = held.get(key);
      if (!lease) return false;
      if (lease.until <= Date.now() || lease.left <= 0) {
        held.delete(key);
        return false;
      }
      lease.left--;
      return true;
    },
    hold(key: string, msBeforeNext: number) {
      const now = Date.now();
      // Leases of windows that are over are dropped now and then, so addresses seen once do not pile up.
      if (held.size >= 10_000) for (const [k, l] of held) if (l.until <= now) held.delete(k);
      held.set(key, { left: size - 1, until: now + msBeforeNext });
    },
  };
}
