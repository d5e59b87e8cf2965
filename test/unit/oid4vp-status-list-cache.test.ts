import type { JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { cachedStatusListFetcher, verifyVpToken } from '../../server/oid4vp/verification/index.js';
import {
  type CachedStatusListFetcher,
  tokenTtlSeconds,
} from '../../server/oid4vp/verification/status-list-cache.js';
import { StatusType } from '../../server/status-list/status-list-encoding.js';
import {
  context,
  employeeQuery,
  issue,
  issuerKey,
  keyPair,
  LIST_URI,
  NOW,
  present,
  signer,
  signJwt,
  statusKey,
  statusLists,
} from '../support/oid4vp-fixtures.js';

/** cachedStatusListFetcher: each list once per its ttl, shared by concurrent checks, failures forgotten. */

function clock(start = NOW) {
  let t = start.getTime();
  return { now: () => new Date(t), advance: (seconds: number) => (t += seconds * 1000) };
}

function countingFetcher(token: () => Promise<string> | string) {
  const calls: string[] = [];
  const fetch = async (uri: string) => {
    calls.push(uri);
    return token();
  };
  return { calls, fetch };
}

const tokenWith = (claims: Record<string, unknown>) =>
  signJwt(
    { typ: 'statuslist+jwt', kid: 'status-1' },
    { sub: LIST_URI, iat: 0, ...claims },
    statusKey.privateKey,
  );

describe('cachedStatusListFetcher', () => {
  it('fetches a list once per ttl (60 s for the service’s tokens)', async () => {
    const lists = statusLists();
    const { calls, fetch } = countingFetcher(() => lists.fetch(LIST_URI));
    const c = clock();
    const cached = cachedStatusListFetcher(fetch, { now: c.now });
    const first = await cached(LIST_URI);
    c.advance(59);
    expect(await cached(LIST_URI)).toBe(first);
    expect(calls).toHaveLength(1);
    c.advance(2);
    await cached(LIST_URI);
    expect(calls).toHaveLength(2);
    // Other lists are cached separately.
    await cached(`${LIST_URI}x`).catch(() => undefined);
    expect(calls).toHaveLength(3);
  });

  it('shares one fetch between concurrent checks', async () => {
    let release: (token: string) => void = () => {};
    const { calls, fetch } = countingFetcher(() => new Promise<string>((r) => (release = r)));
    const cached = cachedStatusListFetcher(fetch);
    const all = Promise.all([cached(LIST_URI), cached(LIST_URI), cached(LIST_URI)]);
    await new Promise((r) => setImmediate(r));
    release(await tokenWith({ ttl: 60, exp: Math.floor(Date.now() / 1000) + 3600 }));
    expect(new Set(await all).size).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('forgets failures and unreadable tokens', async () => {
    let n = 0;
    const { calls, fetch } = countingFetcher(() => {
      n++;
      if (n === 1) throw new Error('503');
      return n === 2 ? 'garbage' : tokenWith({ ttl: 60 });
    });
    const cached = cachedStatusListFetcher(fetch);
    await expect(cached(LIST_URI)).rejects.toThrow('503');
    expect(await cached(LIST_URI)).toBe('garbage');
    const token = await cached(LIST_URI);
    expect(await cached(LIST_URI)).toBe(token);
    expect(calls).toHaveLength(3);
  });

  it('bounds the reuse time by exp and by maxTtlSeconds', async () => {
    const now = new Date(NOW);
    const at = Math.floor(NOW.getTime() / 1000);
    expect(tokenTtlSeconds(await tokenWith({ ttl: 60, exp: at + 3600 }), now, 10)).toBe(60);
    expect(tokenTtlSeconds(await tokenWith({ ttl: 600, exp: at + 30 }), now, 10)).toBe(30);
    expect(tokenTtlSeconds(await tokenWith({ exp: at + 30 }), now, 10)).toBe(30);
    expect(tokenTtlSeconds(await tokenWith({}), now, 10)).toBe(10);
    expect(tokenTtlSeconds(await tokenWith({ ttl: -5 }), now, 10)).toBe(10);
    expect(tokenTtlSeconds('x.y.z', now, 10)).toBe(0);

    const c = clock();
    const { calls, fetch } = countingFetcher(() => tokenWith({ ttl: 365 * 86_400 }));
    const cached = cachedStatusListFetcher(fetch, { now: c.now, maxTtlSeconds: 120 });
    await cached(LIST_URI);
    c.advance(119);
    await cached(LIST_URI);
    c.advance(2);
    await cached(LIST_URI);
    expect(calls).toHaveLength(2);
  });

  it('takes a custom ttlFromToken, and drops the oldest list beyond maxEntries', async () => {
    const c = clock();
    const { calls, fetch } = countingFetcher(() => tokenWith({ ttl: 60 }));
    const cached = cachedStatusListFetcher(fetch, { now: c.now, ttlFromToken: () => 5, maxEntries: 2 });
    await cached('a');
    c.advance(6);
    await cached('a');
    expect(calls).toEqual(['a', 'a']);
    await cached('b');
    await cached('c');
    await cached('a');
    expect(calls).toEqual(['a', 'a', 'b', 'c', 'a']);
    cached.clear();
    await cached('c');
    expect(calls).toHaveLength(6);
  });

  it('makes a verifier see a revocation once the ttl has passed', async () => {
    const lists = statusLists(signer);
    const c = clock();
    const fetchStatusList = cachedStatusListFetcher(lists.fetch, { now: c.now });
    const vp = await present(await issue({ idx: 9 }));
    const verify = () =>
      verifyVpToken({ employee: [vp] }, employeeQuery(), context({ fetchStatusList, now: c.now() }));
    await verify();
    lists.set(9, StatusType.INVALID);
    c.advance(30);
    await verify(); // still the cached list
    c.advance(31);
    await expect(verify()).rejects.toMatchObject({ code: 'revoked' });
    expect(lists.fetched).toHaveLength(2);
  });

  /** The cached fetcher, counting how often it verifies and decodes a token. */
  function countingDerivations(cached: CachedStatusListFetcher) {
    let derivations = 0;
    const fetcher: CachedStatusListFetcher = Object.assign((uri: string) => cached(uri), {
      clear: cached.clear,
      derived: <T>(
        uri: string,
        key: string,
        derive: (token: string) => Promise<T>,
        bytesOf: (v: T) => number,
      ) =>
        cached.derived(
          uri,
          key,
          (token) => {
            derivations++;
            return derive(token);
          },
          bytesOf,
        ),
    });
    return { fetcher, derivations: () => derivations };
  }

  it('verifies and decodes a cached list once per ttl, for every presentation checked meanwhile', async () => {
    const lists = statusLists(signer);
    const c = clock();
    const { fetcher, derivations } = countingDerivations(
      cachedStatusListFetcher(lists.fetch, { now: c.now }),
    );
    const verify = async (idx: number) =>
      verifyVpToken(
        { employee: [await present(await issue({ idx }))] },
        employeeQuery(),
        context({ fetchStatusList: fetcher, now: c.now() }),
      );
    await verify(1);
    await verify(2);
    lists.set(3, StatusType.INVALID);
    await verify(3); // the list as cached: not revoked yet
    expect(derivations()).toBe(1);
    c.advance(61);
    await expect(verify(3)).rejects.toMatchObject({ code: 'revoked' });
    expect(derivations()).toBe(2);
    expect(lists.fetched).toHaveLength(2);
  });

  it('does not honour a list verified under keys the verifier no longer trusts', async () => {
    const lists = statusLists(signer);
    const { fetcher, derivations } = countingDerivations(
      cachedStatusListFetcher(lists.fetch, { now: clock().now }),
    );
    const vp = await present(await issue({ idx: 4 }));
    const verify = (trustedIssuers: () => Promise<JWK[]>) =>
      verifyVpToken(
        { employee: [vp] },
        employeeQuery(),
        context({ fetchStatusList: fetcher, trustedIssuers }),
      );
    await verify(async () => [issuerKey.publicJwk, statusKey.publicJwk]);
    // The issuer's status-list key is no longer among its trusted keys: the cached list is checked again, and refused.
    await expect(
      verify(async () => [issuerKey.publicJwk, keyPair('status-2').publicJwk]),
    ).rejects.toMatchObject({
      code: 'status_unavailable',
    });
    expect(derivations()).toBe(2);
    expect(lists.fetched).toHaveLength(1);
  });

  it('keeps decoded lists within maxDerivedBytes, dropping the oldest', async () => {
    const { calls, fetch } = countingFetcher(() => tokenWith({ ttl: 60 }));
    const cached = cachedStatusListFetcher(fetch, { maxDerivedBytes: 1500 });
    const decode = (uri: string) =>
      cached.derived(
        uri,
        'k',
        async () => new Uint8Array(1000),
        (b) => b.byteLength,
      );
    await decode('a');
    await decode('b'); // 2000 bytes kept would be too many: a goes
    await decode('b');
    expect(calls).toEqual(['a', 'b']);
    await decode('a');
    expect(calls).toEqual(['a', 'b', 'a']);
  });
});
