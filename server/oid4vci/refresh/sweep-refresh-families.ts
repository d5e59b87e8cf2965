import type { Logger } from 'pino';
import type { Orm } from '../../persistence/orm.js';

const SWEEP_MS = 10 * 60_000;
const BATCH = 1_000;

/**
 * Deletes refresh families that can refresh nothing any more, a bounded batch at a time: expired
 * ones, and those whose issuance was withdrawn or has a revoked credential (refused at the token
 * endpoint already). Each holds a copy of a credential payload, personal data kept no longer than
 * refreshing needs it. Their refresh and access tokens go with them. Returns how many went.
 */
export async function sweepRefreshFamilies(orm: Orm): Promise<number> {
  let total = 0;
  for (;;) {
    const [gone] = await orm.em.fork().execute<{ n: number }[]>(
      `with gone as (
         delete from oid4vci_refresh_family where id in (
           select f.id from oid4vci_refresh_family f join issuance i on i.id = f.issuance_id
           where f.expires_at <= now() or i.status = 'withdrawn'
              or exists (select 1 from issued_credential c
                         where c.issuance_id = f.issuance_id and c.status = 'revoked')
           limit ?)
         returning 1)
       select count(*)::int as n from gone`,
      [BATCH],
    );
    total += gone?.n ?? 0;
    if ((gone?.n ?? 0) < BATCH) return total;
  }
}

/** Worker nodes sweep every ten minutes (how soon only matters for how long the copy lingers). */
export function scheduleRefreshFamilySweep(orm: Orm, logger: Logger): () => void {
  const timer = setInterval(() => {
    sweepRefreshFamilies(orm).catch((err) =>
      logger.warn({ err: (err as Error).message }, 'refresh families not swept'),
    );
  }, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
