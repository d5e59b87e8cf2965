import type { EntityManager } from '@mikro-orm/postgresql';
import type { Signer } from '../keys/signer.js';
import { recordEffect } from '../outbox/outbox.js';
import { publishStatusListOnce } from './publish-status-list-once.js';
import { STATUS_LIST_RENEW_AFTER_SECONDS } from './status-list-token.js';

/** Builds in a row for one job before it hands the rest over to a fresh job (a flood must not pin one). */
const MAX_BUILDS_PER_RUN = 100;

/**
 * Least time between two builds of one list by one builder. A burst of changes is then published
 * every quarter second or so (each build folding all changes committed meanwhile) rather than once
 * per change, and a change waits at most this long plus a build before it is published.
 */
const MIN_BUILD_INTERVAL_MS = 250;

/**
 * Brings a list's stored token up to date, coalescing bursts: one caller builds at a time and
 * every build takes in all changes committed before it began, so N changes cost a handful of
 * builds, not N. Returns how many builds it made.
 *
 * A caller that finds another one building does nothing (`busy`): its change committed before it
 * looked, and the builder stops only when a look taken after its own last commit finds nothing
 * pending (or finds a later builder busy, whose fold begins after that look), so that change is
 * folded by the builder or by its successor. If the builder dies first, its own job has not
 * completed and runs again. `wait` (used when no token exists yet) queues behind a builder instead.
 */
export async function publishLatestStatusList(
  em: EntityManager,
  signer: Signer,
  issuerUrl: string,
  listId: string,
  options: { wait?: boolean } = {},
): Promise<number> {
  let wait = options.wait ?? false;
  let notBefore = 0;
  for (let builds = 0; ; ) {
    if (builds === MAX_BUILDS_PER_RUN) {
      await em.transactional((tx) => recordEffect(tx, 'status-list', { listId }));
      return builds;
    }
    if (!wait && (await lookAtList(em, listId)) !== 'stale') return builds;
    // Warm the signer's key cache now, not while holding the row lock.
    await signer.activeKid('status-list');
    const outcome = await publishStatusListOnce(em, signer, issuerUrl, listId, wait, notBefore);
    wait = false;
    if (outcome === 'busy') return builds;
    if (outcome === 'published') {
      builds++;
      notBefore = performance.now() + MIN_BUILD_INTERVAL_MS;
    }
  }
}

/**
 * One statement outside any transaction: whether another builder holds the list, or else whether
 * it needs a build (pending changes, no token of its version, renewal due or unscheduled). Most
 * jobs of a burst end here, at the cost of this one statement.
 */
async function lookAtList(em: EntityManager, listId: string): Promise<'busy' | 'current' | 'stale'> {
  const [row] = await em.execute<{ free: boolean; stale: boolean | null }[]>(
    `select t.list_id is not null as free, t.stale
     from status_list l left join lateral (
       select t.list_id,
         t.version is null or t.version < l.version or t.issued_at is null
           or t.issued_at + make_interval(secs => ?) <= now()
           or t.refresh_at is null or t.refresh_at <= now()
           or exists (select 1 from status_list_change c where c.list_id = l.id) as stale
       from status_list_token t where t.list_id = l.id for update skip locked) t on true
     where l.id = ?`,
    [STATUS_LIST_RENEW_AFTER_SECONDS, listId],
  );
  if (!row) throw new Error(`status list ${listId} does not exist`);
  return !row.free ? 'busy' : row.stale ? 'stale' : 'current';
}
