import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sharedState } from '../../server/ephemeral/shared-state.js';
import { createLimiter, type Limiter } from '../../server/rate-limit/limiter.js';

const redis = new Redis(inject('redisUrl'));
const prefix = `lease-test-${randomUUID()}`;
const nodes = [sharedState(redis, prefix), sharedState(redis, prefix)];
afterAll(async () => {
  for (const n of nodes) await n.close();
  await redis.quit();
});

/** How many of `n` requests of one key the limiters (taking turns, as nodes behind a balancer) let through. */
async function allowed(limiters: Limiter[], key: string, n: number): Promise<number> {
  let count = 0;
  for (let i = 0; i < n; i++) if ((await limiters[i % limiters.length]?.consume(key))?.allowed) count++;
  return count;
}

describe('rate limits counted a lease at a time', () => {
  it('lets exactly the limit through on one node, with a Redis command per lease, not per request', async () => {
    const [a] = nodes.map((n) => createLimiter(n, 'one-node', 200, 60));
    const key = randomUUID();
    const monitor = await redis.monitor();
    const commands: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => arg.includes(key))) commands.push(args.join(' '));
    });
    expect(await allowed([a as Limiter], key, 230)).toBe(200);
    expect(await a?.consume(key)).toMatchObject({ allowed: false, retryAfterSeconds: expect.any(Number) });
    await monitor.disconnect();
    // Leases of 10: 20 commands let 200 requests through.
    const counted = commands
      .filter((c) => /^eval(sha)? /.test(c))
      .map((c) => c.split(' ').slice(-4).join(' '));
    expect(counted.slice(0, 20)).toEqual(Array(20).fill('10 60 200 60'));
    // Past the limit: the refused lease is given back, and the key is refused from memory for a second.
    expect(counted.length).toBeLessThanOrEqual(20 + 3);
  });

  it('takes one lease for requests of a key that arrive together, not one each', async () => {
    const [a] = nodes.map((n) => createLimiter(n, 'together', 200, 60));
    const key = randomUUID();
    const monitor = await redis.monitor();
    const commands: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => arg.includes(key))) commands.push(args.join(' '));
    });
    const verdicts = await Promise.all(Array.from({ length: 30 }, () => (a as Limiter).consume(key)));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the monitor's lines arrive after the replies
    await monitor.disconnect();
    expect(verdicts.every((v) => v.allowed)).toBe(true);
    // 30 requests, leases of 10: three commands (a lease each before, 30), and no point counted
    // that no request spent.
    expect(commands.filter((c) => /^eval(sha)? /.test(c)).length).toBeLessThanOrEqual(3);
    expect(await allowed([a as Limiter], key, 200)).toBe(170);
  });

  it('never lets more than the limit through across nodes that share Redis', async () => {
    const limiters = nodes.map((n) => createLimiter(n, 'two-nodes', 100, 60));
    const key = randomUUID();
    const through = await allowed(limiters, key, 150);
    expect(through).toBeLessThanOrEqual(100);
    // At most one unspent lease (size 5) of the other node is refused early.
    expect(through).toBeGreaterThanOrEqual(95);
  });

  it('counts every request of a small limit on its own, as before', async () => {
    const limiters = nodes.map((n) => createLimiter(n, 'small', 10, 60));
    expect(await allowed(limiters, randomUUID(), 15)).toBe(10);
  });

  it('keeps the limit without Redis too (the embedded default)', async () => {
    const memory = createLimiter(sharedState(undefined, prefix), 'memory', 120, 60);
    expect(await allowed([memory], randomUUID(), 130)).toBe(120);
  });
});
