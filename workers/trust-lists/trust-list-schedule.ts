import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Orm } from '../../server/persistence/orm.js';
import { refreshTrustSource } from '../../server/trust/refresh-trust-source.js';
import type { TrustServices } from '../../server/trust/trust-services.js';
import { TrustSourceRow } from '../../server/trust/trust-source.entity.js';
import { Poller } from '../poller.js';

/** How often a worker node looks for due lists; a list is due at its own next fetch time. */
const PASS_MS = 30_000;
/** A claimed list is someone's for this long: a node that dies mid-fetch gives it back by then. */
const LEASE_SECONDS = 600;

/**
 * Claims up to `limit` due sources by moving their next fetch past the lease (skipping rows another
 * node holds), so several worker nodes never fetch the same list at once; the refresh then sets the
 * real next fetch time.
 */
async function claimDue(em: EntityManager, limit: number): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `update trust_source set next_fetch_at = now() + make_interval(secs => ?)
     where id in (select id from trust_source where next_fetch_at <= now()
                  order by next_fetch_at limit ? for update skip locked)
     returning id`,
    [LEASE_SECONDS, limit],
  );
  return rows.map((r) => r.id);
}

/** One pass: every due list, one at a time (a LOTL's pointers already make one list many fetches). */
export async function refreshDueTrustSources(orm: Pick<Orm, 'em'>, trust: TrustServices): Promise<number> {
  let done = 0;
  for (;;) {
    const em = orm.em.fork();
    const [id] = await claimDue(em, 1);
    if (!id) return done;
    const row = await em.findOne(TrustSourceRow, { id }, { disableIdentityMap: true });
    if (row) await refreshTrustSource(em, trust, row, 'trust-list-worker');
    done++;
  }
}

/** Worker nodes refresh trust sources on their own schedule (each list's NextUpdate, the ceiling). */
export function scheduleTrustListRefresh(
  orm: Orm,
  trust: TrustServices,
  logger: Logger,
): () => Promise<void> {
  const poller = new Poller(
    async () => {
      await refreshDueTrustSources(orm, trust);
    },
    PASS_MS,
    (err) => logger.warn({ err }, 'trust list refresh pass failed; retrying at the next one'),
  );
  poller.start();
  return () => poller.stop();
}
