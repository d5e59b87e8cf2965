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
}

/**
 * A `fetchStatusList` that fetches each list once per its ttl (counted from when it was fetched, as Token
 * Status List "Status List Update Interval and Caching" recommends), in memory, per process. Concurrent requests for a list
 * share one fetch; a failed fetch is not remembered.
 */
export function cachedStatusListFetcher(
  fetch: FetchStatusList,
  options: StatusListCacheOptions = {},
): FetchStatusList & { clear(): void } {
  const now = options.now ?? (() => new Date());
  const maxTtl = options.maxTtlSeconds ?? 3600;
  const maxEntries = options.maxEntries ?? 1000;
  const ttlOf =
    options.ttlFromToken ??
    ((token: string, at: Date) => tokenTtlSeconds(token, at, options.defaultTtlSeconds ?? 60));
  const entries = new Map<string, Entry>();

  const fetchAndKeep = (uri: string): Promise<string> => {
    const entry: Entry = { token: (async () => fetch(uri))() };
    entries.set(uri, entry);
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    entry.token.then(
      (token) => {
        const at = now();
        const seconds = Math.min(ttlOf(token, at) ?? 0, maxTtl);
        if (seconds > 0 && Number.isFinite(seconds)) entry.expiresAt = at.getTime() + seconds * 1000;
        else if (entries.get(uri) === entry) entries.delete(uri);
      },
      () => entries.get(uri) === entry && entries.delete(uri),
    );
    return entry.token;
  };

  const cached = (uri: string) => {
    const entry = entries.get(uri);
    if (entry && (entry.expiresAt === undefined || entry.expiresAt > now().getTime())) return entry.token;
    return fetchAndKeep(uri);
  };
  return Object.assign(cached, { clear: () => entries.clear() });
}
