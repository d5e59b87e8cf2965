import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobMessage } from './job-context.js';

/**
 * The outbox table seen as a queue. A claim leases rows for `leaseSeconds`: a row whose worker died
 * (or whose BullMQ job Redis lost) comes due again when its lease ends, so no effect is lost.
 * `for update skip locked` lets any number of nodes claim at once without taking the same row.
 */
export async function claimDue(
  em: EntityManager,
  limit: number,
  leaseSeconds: number,
): Promise<JobMessage[]> {
  return em.execute<JobMessage[]>(
    `update outbox_message set status = 'dispatched', available_at = now() + make_interval(secs => ?)
     where id in (
       select id from outbox_message
       where status in ('pending', 'dispatched') and available_at <= now()
       order by available_at limit ? for update skip locked)
     returning id, topic, payload, attempts`,
    [leaseSeconds, limit],
  );
}

export async function markDone(em: EntityManager, id: string): Promise<void> {
  await em.execute(
    "update outbox_message set status = 'done', finished_at = now(), last_error = null where id = ?",
    [id],
  );
}

/** Records a failed try that will be made again at `retryAt`. */
export async function markRetry(
  em: EntityManager,
  id: string,
  attempts: number,
  error: string,
  retryAt: Date,
) {
  await em.execute(
    "update outbox_message set status = 'pending', attempts = ?, last_error = ?, available_at = ? where id = ?",
    [attempts, error.slice(0, 2000), retryAt, id],
  );
}

/** Records the last failed try: the message is dead-lettered and waits for an operator. */
export async function markDead(em: EntityManager, id: string, attempts: number, error: string) {
  await em.execute(
    "update outbox_message set status = 'dead', attempts = ?, last_error = ?, finished_at = now() where id = ?",
    [attempts, error.slice(0, 2000), id],
  );
}

export const backoffMs = (base: number, attempt: number) => base * 2 ** Math.max(0, attempt - 1);
