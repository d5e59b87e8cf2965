import { base64url } from 'jose';
import { isObject } from './jws.js';
import type { VerificationContext } from './types.js';

type FetchStatusList = VerificationContext['fetchStatusList'];

export interface StatusListCacheOptions {
  /**
   * Seconds a fetched token may be reused. Default: its `ttl` claim (Token Status List, JWT format), never
   * past its `exp`; `exp` alone when it has no `ttl`; `defaultTtlSeconds` when it has neither. 0 or
   * less: not cached. The token is read unverified here: it only decides when to fetch again, and
   * every use verifies the token anyway.
   */
  ttlFromToken?: (token: string, now: Date) => number | undefined;
  /** Reuse time of a token without `ttl` and `exp`. Default 60. */
  defaultTtlSeconds?: number;
  /** Upper bound on any reuse time, against a list that claims a ttl of a year ("Expiration and Caching"). Default 3600. */
  maxTtlSeconds?: number;
  /** Lists kept at most; the oldest is dropped first. Default 1000. */
  maxEntries?: number;
  /**
   * Bytes of what is derived from the kept tokens (decoded lists) at most; the oldest lists are
   * dropped first. Default 128 MiB: a decoded list can be a hundred times its token.
   */
  maxDerivedBytes?: number;
  /** The clock, for tests. */
  now?: () => Date;
}

/** `ttl`, bounded by `exp`, of a compact statuslist+jwt read without verifying; 0 when unreadable. */
export function tokenTtlSeconds(token: string, now: Date, fallback: number): number {
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(base64url.decode(token.trim().split('.')[1] ?? '')));
  } catch {
    return 0;
  }
  if (!isObject(payload)) return 0;
  const untilExp = typeof payload.exp === 'number' ? payload.exp - now.getTime() / 1000 : undefined;
  const ttl = typeof payload.ttl === 'number' && payload.ttl > 0 ? payload.ttl : undefined;
  if (ttl !== undefined) return untilExp === undefined ? ttl : Math.min(ttl, untilExp);
  return untilExp ?? fallback;
}

interface Entry {
  token: Promise<string>;
  /** Milliseconds since the epoch; undefined while the fetch is under way. */
  expiresAt?: number;
  /** What was derived from the token (verified and decoded), per verifying key set. */
  derived: Map<string, Promise<unknown>>;
  /** Bytes of the derived values, as their `bytesOf` said. */
  bytes: number;
}

/** The cached fetcher, plus a memo of what is derived from each cached token for as long as it is kept. */
export type CachedStatusListFetcher = FetchStatusList & {
  clear(): void;
  /**
   * `derive(token)` of the current token of `uri`, computed once per `key` while the token is cached
   * (a failure is not remembered). The verifier passes its signature check and decompression, keyed
   * by the issuer and its keys, so a cached list is verified and decoded once per ttl, not per use.
   */
  derived<T>(
    uri: string,
    key: string,
    derive: (token: string) => Promise<T>,
    bytesOf: (value: T) => number,
  ): Promise<T>;
};

export const isCachedStatusListFetcher = (f: FetchStatusList): f is CachedStatusListFetcher =>
  typeof (f as Partial<CachedStatusListFetcher>).derived === 'function';

/**
 * A `fetchStatusList` that fetches each list once per its ttl (counted from when it was fetched, as Token
 * Status List "Status List Update Interval and Caching" recommends), in memory, per process. Concurrent requests for a list
 * share one fetch; a failed fetch is not remembered.
 */
export function cachedStatusListFetcher(
  fetch: FetchStatusList,
  options: StatusListCacheOptions = {},
): CachedStatusListFetcher {
  const now = options.now ?? (() => new Date());
  const maxTtl = options.maxTtlSeconds ?? 3600;
  const maxEntries = options.maxEntries ?? 1000;
  const ttlOf =
    options.ttlFromToken ??
    ((token: string, at: Date) => tokenTtlSeconds(token, at, options.defaultTtlSeconds ?? 60));
  const maxDerivedBytes = options.maxDerivedBytes ?? 128 * 1024 * 1024;
  const entries = new Map<string, Entry>();
  let derivedBytes = 0;
  const drop = (uri: string, entry: Entry) => {
    if (entries.get(uri) !== entry) return;
    entries.delete(uri);
    derivedBytes -= entry.bytes;
  };
  const evictOldest = (keep: Entry) => {
    for (const [uri, entry] of entries) {
      if (entries.size <= maxEntries && derivedBytes <= maxDerivedBytes) return;
      if (entry !== keep) drop(uri, entry);
    }
  };

  const fetchAndKeep = (uri: string): Entry => {
    const entry: Entry = { token: (async () => fetch(uri))(), derived: new Map(), bytes: 0 };
    const previous = entries.get(uri);
    if (previous) drop(uri, previous);
    entries.set(uri, entry);
    evictOldest(entry);
    entry.token.then(
      (token) => {
        const at = now();
        const seconds = Math.min(ttlOf(token, at) ?? 0, maxTtl);
        if (seconds > 0 && Number.isFinite(seconds)) entry.expiresAt = at.getTime() + seconds * 1000;
        else drop(uri, entry);
      },
      () => drop(uri, entry),
    );
    return entry;
  };

  const current = (uri: string) => {
    const entry = entries.get(uri);
    if (entry && (entry.expiresAt === undefined || entry.expiresAt > now().getTime())) return entry;
    return fetchAndKeep(uri);
  };

  async function derived<T>(
    uri: string,
    key: string,
    derive: (token: string) => Promise<T>,
    bytesOf: (value: T) => number,
  ): Promise<T> {
    const entry = current(uri);
    const token = await entry.token;
    const known = entry.derived.get(key) as Promise<T> | undefined;
    if (known) return known;
    const computing = derive(token);
    entry.derived.set(key, computing);
    computing.then(
      (value) => {
        if (entries.get(uri) !== entry) return;
        const bytes = bytesOf(value);
        entry.bytes += bytes;
        derivedBytes += bytes;
        evictOldest(entry);
      },
      () => entry.derived.get(key) === computing && entry.derived.delete(key),
    );
    return computing;
  }

  const clear = () => {
    entries.clear();
    derivedBytes = 0;
  };
  return Object.assign((uri: string) => current(uri).token, { clear, derived });
}
