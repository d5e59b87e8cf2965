import type { EntityManager } from '@mikro-orm/postgresql';
import { type StatusBits, writeStatus } from './status-list-encoding.js';

/**
 * Status changes not yet folded into their list's byte array. A change appends one
 * `status_list_change` row and locks nothing shared; the publisher takes the rows of a list (deleting
 * them) and folds them into `status_list.statuses` in the same transaction as it stores the token
 * built from the result. A list's current statuses are therefore its stored bytes with its pending
 * rows applied in `seq` order, whichever of the two a reader's snapshot catches them in.
 */
export interface StatusChange {
  /** bigint as text: the order changes to one entry are applied in. */
  seq: string;
  idx: number;
  status: number;
}

const bySeq = (a: StatusChange, b: StatusChange) => {
  const d = BigInt(a.seq) - BigInt(b.seq);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/** Applies `changes` to `bytes` in place, oldest first (the last change to an entry wins). */
export function applyStatusChanges(bytes: Uint8Array, bits: StatusBits, changes: StatusChange[]): Uint8Array {
  for (const c of [...changes].sort(bySeq)) writeStatus(bytes, bits, c.idx, c.status);
  return bytes;
}

/** Changes folded at most at once, so a backlog (workers down for hours) is folded in bounded steps. */
const MAX_CHANGES_PER_FOLD = 200_000;

/**
 * Removes and returns the oldest pending changes of a list, in the caller's transaction (they come
 * back if it rolls back). One statement: exactly the rows it returns are deleted, so a change
 * committed meanwhile stays for the next fold.
 */
export async function takeStatusChanges(tx: EntityManager, listId: string): Promise<StatusChange[]> {
  if (!tx.isInTransaction()) throw new Error('takeStatusChanges must run in the transaction that folds them');
  return tx.execute<StatusChange[]>(
    `delete from status_list_change where seq in (
       select seq from status_list_change where list_id = ? order by seq limit ?)
     returning seq::text as seq, idx, status`,
    [listId, MAX_CHANGES_PER_FOLD],
  );
}

/**
 * A list's statuses as they stand, folded or not, from one snapshot. `version` counts every change
 * made to the list: folded ones (the list's stored version) plus pending ones.
 */
export async function currentStatuses(em: EntityManager, listId: string) {
  const [row] = await em.execute<
    { bits: number; statuses: Buffer; version: string; pending: StatusChange[] | null }[]
  >(
    `select bits, statuses, version,
       (select json_agg(json_build_object('seq', seq::text, 'idx', idx, 'status', status))
        from status_list_change where list_id = l.id) as pending
     from status_list l where id = ?`,
    [listId],
  );
  if (!row) throw new Error(`status list ${listId} does not exist`);
  const pending = row.pending ?? [];
  const bytes = applyStatusChanges(new Uint8Array(row.statuses), row.bits as StatusBits, pending);
  return { bits: row.bits as StatusBits, bytes, version: Number(row.version) + pending.length };
}
