import type { Logger } from 'pino';
import type { Orm } from '../persistence/orm.js';

const SWEEP_MS = 10 * 60_000;
const BATCH = 5_000;

/** Deletes every expired key, in batches; returns how many went. */
export async function sweepExpiredIdempotencyKeys(orm: Orm): Promise<number> {
  let total = 0;
  for (;;) {
    const [gone] = await orm.em.fork().execute<{ n: number }[]>(
      `with gone as (
         delete from idempotency_key where ctid in (
           select ctid from idempotency_key where expires_at <= now() limit ?)
         returning 1)
       select count(*)::int as n from gone`,
      [BATCH],
    );
    total += gone?.n ?? 0;
    if ((gone?.n ?? 0) < BATCH) return total;
  }
}

/**
 * Worker nodes delete Idempotency-Key answers past their 24 hours, a bounded batch at a time so that
 * one sweep never holds many locks. An expired key is already free for reuse before it is swept
 * (idempotent.ts reclaims it), so how soon this runs only matters for the table's size.
 */
export function scheduleIdempotencyExpiry(orm: Orm, logger: Logger): () => void {
  const timer = setInterval(() => {
    sweepExpiredIdempotencyKeys(orm).catch((err) =>
      logger.warn({ err: (err as Error).message }, 'idempotency keys not swept'),
    );
  }, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
