import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../persistence/uuid.js';
import { STATUS_LIST_BITS } from './status-list.entity.js';
import { entryPosition, StatusType } from './status-list-encoding.js';

export type CredentialStatusValue = 'valid' | 'invalid' | 'suspended';

const STATUS_VALUES: Record<CredentialStatusValue, number> = {
  valid: StatusType.VALID,
  invalid: StatusType.INVALID,
  suspended: StatusType.SUSPENDED,
};

interface Outcome {
  size: number;
  bits: number;
  added: number;
}

/**
 * Sets a credential's entry in the caller's transaction (nothing happens if it rolls back).
 *
 * The change is one appended `status_list_change` row (status-list-changes.ts), written by a single
 * statement that also checks the list, the index and the entry's current value (its latest pending
 * change, else its byte, read as one TOAST chunk). No list-wide row is locked or rewritten, so
 * changes to one list from any number of transactions never wait for each other. The row is also
 * the durable signal to publish: worker nodes look for lists with pending changes every 100 ms
 * (workers/status-list/status-list-schedule.ts). An outbox message per change would make every
 * commit NOTIFY, and PostgreSQL serialises notifying commits (about 400/s on this machine).
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
  if (!Number.isSafeInteger(entry.idx) || entry.idx < 0 || entry.idx >= 2 ** 31)
    throw new RangeError(`index ${entry.idx} is outside status list ${entry.listId}`);
  const { byte, shift, mask } = entryPosition(entry.idx, STATUS_LIST_BITS);
  const { idx, listId } = entry;
  const [list] = isUuid(listId)
    ? await tx.execute<Outcome[]>(
        `with list as (
           select id, size, bits,
             case when ? < size then coalesce(
               (select c.status from status_list_change c where c.list_id = l.id and c.idx = ? order by c.seq desc limit 1),
               (get_byte(substring(l.statuses from ? for 1), 0) & ?) >> ?) end as current
           from status_list l where id = ?
         ), added as (
           insert into status_list_change (list_id, idx, status)
           select id, ?, ? from list where ? < size and bits = ? and current <> ?
           returning seq
         )
         select size, bits, (select count(*) from added)::int as added from list`,
        [idx, idx, byte + 1, mask, shift, listId, idx, value, idx, STATUS_LIST_BITS, value],
      )
    : [];
  if (!list) throw new Error(`status list ${listId} does not exist`);
  if (list.bits !== STATUS_LIST_BITS) throw new Error(`status list ${listId} has ${list.bits} bits`);
  if (idx >= list.size) throw new RangeError(`index ${idx} is outside status list ${listId}`);
  return list.added > 0;
}
