import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Transaction } from 'kysely';
import { applyStatusChanges, takeStatusChanges } from './status-list-changes.js';
import { decodeStatusList, type StatusBits } from './status-list-encoding.js';

export interface FoldedList {
  bits: StatusBits;
  statuses: Uint8Array;
  /** The list's version after the fold: every change it has ever had. */
  version: string;
}

interface ListState {
  bits: number;
  version: string;
  size: number;
  /** The stored token when it was built from the list's current version, else null. */
  token: string | null;
}

/**
 * Takes a list's pending changes and writes the list with them applied, in the builder's
 * transaction (the caller holds the token row, so it is the list row's only writer). Returns what
 * to publish.
 *
 * The starting bytes are decoded from the stored token when that token was built from the list's
 * current version (it then holds exactly those bytes): inflating ~160 KB is much cheaper than
 * reading a 10M-entry list's 2.5 MB array, which is read only when there is no such token.
 */
export async function foldPendingChanges(tx: EntityManager, listId: string): Promise<FoldedList> {
  const changes = await takeStatusChanges(tx, listId);
  const [list] = await tx.execute<ListState[]>(
    `select l.bits, l.version, l.size, case when t.version = l.version then t.token end as token
     from status_list l join status_list_token t on t.list_id = l.id where l.id = ?`,
    [listId],
  );
  if (!list) throw new Error(`status list ${listId} does not exist`);
  const bits = list.bits as StatusBits;
  const base = list.token ? fromToken(list.token, list.size, bits) : await storedBytes(tx, listId);
  const statuses = applyStatusChanges(base, bits, changes);
  const version = (BigInt(list.version) + BigInt(changes.length)).toString();
  if (changes.length > 0) await writeStatuses(tx, listId, statuses, version);
  return { bits, statuses, version };
}

function fromToken(token: string, size: number, bits: StatusBits): Uint8Array {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
  const bytes = decodeStatusList(payload.status_list.lst, Math.ceil((size * bits) / 8));
  if (bytes.length !== Math.ceil((size * bits) / 8)) throw new Error('stored token does not match its list');
  return bytes;
}

async function storedBytes(tx: EntityManager, listId: string): Promise<Uint8Array> {
  const [row] = await tx.execute<{ statuses: Buffer }[]>('select statuses from status_list where id = ?', [
    listId,
  ]);
  if (!row) throw new Error(`status list ${listId} does not exist`);
  return new Uint8Array(row.statuses);
}

/**
 * Writes the byte array as a bound parameter through the driver, in the caller's transaction: the
 * ORM would inline 2.5 MB as a 5 MB hex literal for PostgreSQL to parse (200 ms against 55 ms).
 */
async function writeStatuses(tx: EntityManager, listId: string, bytes: Uint8Array, version: string) {
  const connection = tx.getTransactionContext<Transaction<unknown>>();
  if (!connection) throw new Error('the fold must run in a transaction');
  await connection.executeQuery(
    CompiledQuery.raw('update status_list set statuses = $1, version = $2 where id = $3', [
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      version,
      listId,
    ]),
  );
}
