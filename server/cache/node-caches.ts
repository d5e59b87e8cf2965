import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type CacheOptions, DEFAULT_CACHE_OPTIONS, ReadThroughCache } from './read-through-cache.js';

/** The PostgreSQL channel every node LISTENs on; the payload is `<topic> <key>` (`*`: all keys). */
export const INVALIDATION_CHANNEL = 'credservice_cache';

/**
 * One node's caches of rarely changing rows (tenants, tokens, keys, configurations, provisioning),
 * one per topic. They belong to an ORM instance, so two nodes started in one process (as the tests
 * do) have caches of their own and learn of each other's changes only through the database.
 */
export class NodeCaches {
  readonly #caches = new Map<string, ReadThroughCache<unknown>>();
  readonly #watchers = new Map<string, Set<() => void>>();
  /** True while invalidations are being received; until then, and after a loss, nothing is kept. */
  listening = false;

  cache<V>(topic: string, options: CacheOptions = DEFAULT_CACHE_OPTIONS): ReadThroughCache<V> {
    let cache = this.#caches.get(topic);
    if (!cache) {
      cache = new ReadThroughCache<unknown>(options, () => this.listening);
      this.#caches.set(topic, cache);
    }
    return cache as ReadThroughCache<V>;
  }

  /** Runs `reload` whenever `topic` changes, or may have changed unheard, for holders of their own copy. */
  watch(topic: string, reload: () => void): void {
    const set = this.#watchers.get(topic) ?? new Set();
    set.add(reload);
    this.#watchers.set(topic, set);
  }

  invalidateLocal(topic: string, key?: string): void {
    this.#caches.get(topic)?.invalidate(key);
    for (const reload of this.#watchers.get(topic) ?? []) reload();
  }

  /** Forgets everything; `reload` false at shutdown, when nothing should go to the database any more. */
  invalidateAll(reload = true): void {
    for (const cache of this.#caches.values()) cache.invalidate();
    if (reload) for (const set of this.#watchers.values()) for (const watcher of set) watcher();
  }
}

type Orm = Pick<MikroORM, 'config' | 'em'>;
const nodes = new WeakMap<object, NodeCaches>();
/** Invalidations a transaction sent, applied to this node's caches once it has committed. */
const pendingByTransaction = new WeakMap<
  object,
  { node: NodeCaches; items: [string, string | undefined][] }
>();

/**
 * Registered on a transaction's own event manager (MikroORM gives each transaction a copy) only when
 * that transaction invalidates something: every subscriber is copied into every transaction, so one
 * registered globally would cost all of them.
 */
class ApplyAfterCommit implements EventSubscriber {
  afterTransactionCommit(args: TransactionEventArgs): void {
    const pending = args.transaction ? pendingByTransaction.get(args.transaction) : undefined;
    if (!pending) return;
    pendingByTransaction.delete(args.transaction as object);
    for (const [topic, key] of pending.items) pending.node.invalidateLocal(topic, key);
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    if (args.transaction) pendingByTransaction.delete(args.transaction);
  }
}

const applyAfterCommit = new ApplyAfterCommit();

/** Gives the ORM's node its caches. Without this (scripts, unit tests) nothing is cached. */
export function attachNodeCaches(orm: Orm): NodeCaches {
  const existing = nodes.get(orm.config);
  if (existing) return existing;
  const node = new NodeCaches();
  nodes.set(orm.config, node);
  return node;
}

export const nodeCachesOf = (orm: Pick<Orm, 'config'>): NodeCaches | undefined => nodes.get(orm.config);

const transactionOf = (em: EntityManager) => (em.isInTransaction() ? em.getTransactionContext() : undefined);

/**
 * A request's EntityManager before it is forked (http/request-context): its configuration is known
 * at once, the fork is made by `em()` only when a read misses the cache. A fresh fork is in no
 * transaction, so a cached read needs none; forking was a twentieth of an authenticated GET's CPU.
 */
export interface UnforkedEntityManager {
  readonly config: EntityManager['config'];
  em(): EntityManager;
}

/** Either an EntityManager or one forked on first use. */
export type EntityManagerSource = EntityManager | UnforkedEntityManager;

const isUnforked = (source: EntityManagerSource): source is UnforkedEntityManager =>
  typeof (source as Partial<UnforkedEntityManager>).em === 'function';

/** The EntityManager itself, forking an unforked one now. */
export const entityManagerOf = (source: EntityManagerSource): EntityManager =>
  isUnforked(source) ? source.em() : source;

/**
 * `load()`'s value through the node's cache for `topic`. `load` reads with `em`, in the caller's
 * transaction if any. That transaction sees only committed rows (READ COMMITTED) unless it changed
 * the topic itself; then its reads are its own and are not kept. An unforked `em` is in none.
 */
export async function cached<V>(
  em: EntityManagerSource,
  topic: string,
  key: string,
  load: () => Promise<V>,
  options?: CacheOptions,
): Promise<V> {
  const node = nodes.get(em.config);
  if (!node) return load();
  const tx = isUnforked(em) ? undefined : transactionOf(em);
  const ownChange = tx ? pendingByTransaction.get(tx)?.items.some(([t]) => t === topic) : false;
  return node.cache<V>(topic, options).get(key, load, !ownChange);
}

/**
 * Tells every node that `key` of `topic` (all keys when omitted) changed. In a transaction the
 * NOTIFY is delivered at commit and not at all on rollback, so no node drops an entry for a change
 * that never happened; this node's own caches are cleared once the commit has returned.
 */
export async function invalidate(em: EntityManager, topic: string, key?: string): Promise<void> {
  await em.execute('select pg_notify(?, ?)', [INVALIDATION_CHANNEL, `${topic} ${key ?? '*'}`]);
  const node = nodes.get(em.config);
  if (!node) return;
  const tx = transactionOf(em);
  if (!tx) return node.invalidateLocal(topic, key);
  const pending = pendingByTransaction.get(tx) ?? { node, items: [] };
  pending.items.push([topic, key]);
  pendingByTransaction.set(tx, pending);
  em.getEventManager().registerSubscriber(applyAfterCommit);
}
