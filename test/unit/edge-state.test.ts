import type { Request } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { memoryTtlStore } from '../../server/ephemeral/ttl-store.js';
import { addressKey } from '../../server/rate-limit/client-address.js';

/** The in-memory TTL store of the embedded default, and the key a client address is counted under. */
describe('memoryTtlStore', () => {
  it('forgets entries at their TTL and sets-if-absent once', async () => {
    vi.useFakeTimers();
    try {
      const store = memoryTtlStore();
      expect(await store.setIfAbsent('k', 'a', 10)).toBe(true);
      expect(await store.setIfAbsent('k', 'b', 10)).toBe(false);
      expect(await store.get('k')).toBe('a');
      vi.advanceTimersByTime(10_001);
      expect(await store.get('k')).toBeUndefined();
      expect(await store.setIfAbsent('k', 'c', 10)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds at most its bound, dropping the oldest first', async () => {
    const store = memoryTtlStore(3);
    for (const k of ['a', 'b', 'c', 'd']) await store.set(k, k, 60);
    expect(await store.get('a')).toBeUndefined();
    expect(await Promise.all(['b', 'c', 'd'].map((k) => store.get(k)))).toEqual(['b', 'c', 'd']);
  });
});

describe('addressKey', () => {
  const req = (ip: string) => ({ ip, socket: {} }) as unknown as Request;
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::7', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(addressKey(req(ip))).toBe(key);
  });
});
