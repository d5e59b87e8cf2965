import { describe, expect, it } from 'vitest';
import { ReadThroughCache } from '../../server/cache/read-through-cache.js';
import { sleep } from '../support/until.js';

/** A load that counts its calls and answers the current value of `row`. */
function source(initial: string | undefined) {
  const s = {
    row: initial,
    loads: 0,
    load: async () => {
      s.loads++;
      return s.row;
    },
  };
  return s;
}

const options = { ttlMs: 60_000, maxEntries: 100 };

describe('read-through cache', () => {
  it('loads once and answers from memory until the key is invalidated', async () => {
    const cache = new ReadThroughCache<string | undefined>(options, () => true);
    const s = source('v1');
    expect(await cache.get('k', s.load)).toBe('v1');
    s.row = 'v2';
    expect(await cache.get('k', s.load)).toBe('v1');
    expect(s.loads).toBe(1);
    cache.invalidate('k');
    expect(await cache.get('k', s.load)).toBe('v2');
    expect(s.loads).toBe(2);
  });

  it('does not keep what a load read before an invalidation that arrived while it ran', async () => {
    const cache = new ReadThroughCache<string>(options, () => true);
    let release: () => void = () => undefined;
    const slow = async () => {
      const read = 'old row';
      await new Promise<void>((r) => {
        release = r;
      });
      return read;
    };
    const inFlight = cache.get('k', slow);
    await sleep(1);
    cache.invalidate('k');
    release();
    expect(await inFlight).toBe('old row');
    expect(await cache.get('k', async () => 'new row')).toBe('new row');
  });

  it('keeps nothing while it cannot hear invalidations, nor when told the read is not storable', async () => {
    let listening = false;
    const cache = new ReadThroughCache<string | undefined>(options, () => listening);
    const s = source('v1');
    await cache.get('k', s.load);
    await cache.get('k', s.load);
    expect(s.loads).toBe(2);
    listening = true;
    await cache.get('k', s.load, false);
    await cache.get('k', s.load);
    await cache.get('k', s.load);
    expect(s.loads).toBe(4);
  });

  it('forgets entries after the ttl, drops the oldest beyond the bound, and never keeps undefined', async () => {
    const cache = new ReadThroughCache<string | undefined>({ ttlMs: 20, maxEntries: 2 }, () => true);
    const s = source('v');
    await cache.get('k', s.load);
    await sleep(30);
    await cache.get('k', s.load);
    expect(s.loads).toBe(2);
    await cache.get('a', s.load);
    await cache.get('b', s.load);
    expect(cache.size).toBe(2);
    const missing = source(undefined);
    await cache.get('none', missing.load);
    await cache.get('none', missing.load);
    expect(missing.loads).toBe(2);
  });
});
