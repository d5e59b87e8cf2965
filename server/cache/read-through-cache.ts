export interface CacheOptions {
  /** The safety net: how long an entry is trusted even if no invalidation ever arrives. */
  ttlMs: number;
  /** Oldest entries are dropped beyond this many. */
  maxEntries: number;
}

export const DEFAULT_CACHE_OPTIONS: CacheOptions = { ttlMs: 30_000, maxEntries: 10_000 };

/**
 * Values of rarely changing rows by key, loaded on a miss. A load that was running when an
 * invalidation arrived may have read the old row, so its result is handed back but not kept: every
 * invalidation bumps an epoch, and only a load that finishes in the epoch it started in is stored.
 * `canStore` is false while invalidations might be missed (the listening connection is down): then
 * nothing is kept and every read goes to the database.
 */
export class ReadThroughCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  readonly #options: CacheOptions;
  readonly #canStore: () => boolean;
  #epoch = 0;

  constructor(options: CacheOptions, canStore: () => boolean) {
    this.#options = options;
    this.#canStore = canStore;
  }

  /** The cached value, or `load()`'s (kept unless `storable` is false or it is undefined). */
  async get(key: string, load: () => Promise<V>, storable = true): Promise<V> {
    const hit = this.#entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    if (hit) this.#entries.delete(key);
    if (!storable || !this.#canStore()) return load();
    const epoch = this.#epoch;
    const value = await load();
    if (value !== undefined && epoch === this.#epoch && this.#canStore()) {
      if (this.#entries.size >= this.#options.maxEntries) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
      this.#entries.set(key, { value, expires: Date.now() + this.#options.ttlMs });
    }
    return value;
  }

  /** Forgets `key`, or everything when no key is given. */
  invalidate(key?: string): void {
    this.#epoch++;
    if (key === undefined) this.#entries.clear();
    else this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
