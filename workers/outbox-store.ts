import type { EntityManager } from '@mikro-orm/postgresql';
import type { Completion, JobMessage } from './job-context.js';

/**
 * The outbox table seen as a queue. A claim leases rows for `leaseSeconds`: a row whose worker died
 * (or whose BullMQ job Redis lost) comes due again when its lease ends, so no effect is lost.
 * `redelivery` tells a row claimed again after its lease from one claimed for the first time (or
 * after a recorded failure). `for update skip locked` lets any number of nodes claim at once without
 * taking the same row.
 */
export async function claimDue(
  em: EntityManager,
  limit: number,
  leaseSeconds: number,
): Promise<(JobMessage & { redelivery: boolean })[]> {
  return em.execute<(JobMessage & { redelivery: boolean })[]>(
    `with due as (
       select id, status from outbox_message
       where status in ('pending', 'dispatched') and available_at <= now()
       order by available_at limit ? for update skip locked)
     update outbox_message o set status = 'dispatched', available_at = now() + make_interval(secs => ?)
     from due where o.id = due.id
     returning o.id, o.topic, o.payload, o.attempts, due.status = 'dispatched' as redelivery`,
    [limit, leaseSeconds],
  );
}

/** Extends the leases of rows still being worked on, so that a long job is not claimed again. */
export async function renewLeases(em: EntityManager, ids: string[], leaseSeconds: number): Promise<void> {
  if (!ids.length) return;
  await em.execute(
    `update outbox_message set available_at = now() + make_interval(secs => ?)
     where id = any(?::uuid[]) and status = 'dispatched'`,
    [leaseSeconds, `{${ids.join(',')}}`],
  );
}

export async function markDone(em: EntityManager, id: string): Promise<void> {
  await em.execute(
    "update outbox_message set status = 'done', finished_at = now(), last_error = null where id = ?",
    [id],
  );
}

/** A job's Completion when its processor supplies none: the row marked done by itself. */
export const markDoneBy =
  (em: EntityManager): Completion =>
  (id) =>
    markDone(em, id);

/** Records a failed try that will be made again at `retryAt`. */
export async function markRetry(
  em: EntityManager,
  id: string,
  attempts: number,
  error: string,
  retryAt: Date,
) {
  await em.execute(
    "update outbox_message set status = 'pending', attempts = ?, last_error = ?, available_at = ? where id = ? and status <> 'done'",
    [attempts, error.slice(0, 2000), retryAt, id],
  );
}

/** Records the last failed try: the message is dead-lettered and waits for an operator. */
export async function markDead(em: EntityManager, id: string, attempts: number, error: string) {
  await em.execute(
    "update outbox_message set status = 'dead', attempts = ?, last_error = ?, finished_at = now() where id = ? and status <> 'done'",
    [attempts, error.slice(0, 2000), id],
  );
}

export const backoffMs = (base: number, attempt: number) => base * 2 ** Math.max(0, attempt - 1);
