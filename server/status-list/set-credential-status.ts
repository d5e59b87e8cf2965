import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEffect } from '../outbox/outbox.js';
import { beforeCommit } from '../persistence/before-commit.js';
import { isUuid } from '../persistence/uuid.js';
import { STATUS_LIST_BITS } from './status-list.entity.js';
import { entryPosition, StatusType } from './status-list-encoding.js';

export type CredentialStatusValue = 'valid' | 'invalid' | 'suspended';

const STATUS_VALUES: Record<CredentialStatusValue, number> = {
  valid: StatusType.VALID,
  invalid: StatusType.INVALID,
  suspended: StatusType.SUSPENDED,
};

/**
 * Sets a credential's entry in the caller's transaction, and records the outbox effect that makes
 * the worker republish the list once the transaction commits (nothing happens if it rolls back).
 *
 * The byte is rewritten by one UPDATE reading its current value (get_byte/set_byte): the row lock
 * makes concurrent changes queue, and each re-reads the byte its predecessor wrote, so changes to
 * neighbouring entries of the same byte never overwrite one another. The UPDATE runs just before
 * the caller commits (persistence/before-commit.ts), so the list's row lock is held for the commit
 * only and revocations of many credentials of one list do not queue behind whole requests.
 *
 * Returns false, recording nothing, when the entry already had that status.
 */
export async function setCredentialStatus(
  tx: EntityManager,
  entry: { listId: string; idx: number },
  status: CredentialStatusValue,
): Promise<boolean> {
  if (!tx.isInTransaction())
    throw new Error('setCredentialStatus must run inside the transaction of the change');
  const value = STATUS_VALUES[status];
  if (value === undefined) throw new Error(`unknown credential status ${status}`);
  const [list] = isUuid(entry.listId)
    ? await tx.execute<{ size: number; bits: number }[]>('select size, bits from status_list where id = ?', [
        entry.listId,
      ])
    : [];
  if (!list) throw new Error(`status list ${entry.listId} does not exist`);
  if (list.bits !== STATUS_LIST_BITS) throw new Error(`status list ${entry.listId} has ${list.bits} bits`);
  if (!Number.isSafeInteger(entry.idx) || entry.idx < 0 || entry.idx >= list.size)
    throw new RangeError(`index ${entry.idx} is outside status list ${entry.listId}`);

  const { byte, shift, mask } = entryPosition(entry.idx, STATUS_LIST_BITS);
  const bits = value << shift;
  const [current] = await tx.execute<{ b: number }[]>(
    'select get_byte(statuses, ?) & ? as b from status_list where id = ?',
    [byte, mask, entry.listId],
  );
  if (current?.b === bits) return false;
  beforeCommit(tx, 'status-list', entry.listId, async (em) => {
    await em.execute(
      `update status_list
       set statuses = set_byte(statuses, ?, (get_byte(statuses, ?) & ?) | ?), version = version + 1
       where id = ? and (get_byte(statuses, ?) & ?) <> ?`,
      [byte, byte, 0xff & ~mask, bits, entry.listId, byte, mask, bits],
    );
  });
  await recordEffect(tx, 'status-list', { listId: entry.listId });
  return true;
}
