import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEffect } from '../outbox/outbox.js';
import { type Sql, transactionSql } from '../persistence/sql.js';
import { DEFAULT_STATUS_LIST_SIZE, STATUS_LIST_BITS } from './status-list.entity.js';
import { statusByteLength } from './status-list-encoding.js';
import { permuteIndex } from './status-list-permutation.js';
import { statusListUri } from './status-list-token.js';

export interface StatusEntry {
  listId: string;
  idx: number;
  /** `status.status_list.uri` of the credential: where its list is served. */
  uri: string;
}

export interface AllocateOptions {
  /** Entries of a list this call may open (tests use small lists); lists already open keep their size. */
  listSize?: number;
}

/** 64 MiB of statuses: far beyond any useful token, and well inside PostgreSQL's integer and bytea limits. */
const MAX_LIST_SIZE = 2 ** 28;

interface ListRow {
  id: string;
  seq_start: string;
  size: number;
  seed: Buffer;
}
type Numbered = Partial<ListRow> & { n: string };

/**
 * Reserves a fresh status list entry for a credential, inside the issuance transaction.
 *
 * `issuerUrl` is a parameter (not read from a global) because the URI is part of what is signed.
 *
 * The entry is the next number of a sequence, mapped through the owning list's secret permutation:
 * indexes come out in no discernible order and none is handed out twice, even across rolled-back
 * transactions (a rolled-back number is simply never used; its entry stays VALID like any unused
 * one). Nothing here locks a row: nextval() never waits, so a slow issuance transaction holds up
 * no other, and the numbers and their lists come back from one statement however many are asked for.
 *
 * Lists are opened ahead of need: the allocation half-way through a list asks the status-list
 * worker to open the next one in a transaction of its own. Only if that has not happened by the
 * time the list is full does an issuance transaction open the next list itself, and others that
 * need that same list then wait for it to commit or roll back.
 */
export async function allocateStatusEntries(
  tx: EntityManager,
  issuerUrl: string,
  count: number,
  options: AllocateOptions = {},
): Promise<StatusEntry[]> {
  if (!tx.isInTransaction()) throw new Error('allocateStatusEntry must run inside the issuance transaction');
  const listSize = options.listSize ?? DEFAULT_STATUS_LIST_SIZE;
  if (
    !Number.isSafeInteger(listSize) ||
    listSize < 1 ||
    listSize > MAX_LIST_SIZE ||
    (listSize * STATUS_LIST_BITS) % 8
  )
    throw new RangeError(`list size ${listSize} must be a multiple of ${8 / STATUS_LIST_BITS} in [1, 2^28]`);
  const numbered = await transactionSql(tx).query<Numbered>(NUMBERED, [count]);
  const entries: StatusEntry[] = [];
  for (const row of numbered) entries.push(await place(tx, issuerUrl, row, listSize));
  return entries;
}

/**
 * `count` entries for a change that is written afterwards by one statement of its own, with no
 * transaction open meanwhile (the wallet's credential request). The numbers are drawn outside any
 * transaction, which changes nothing since nextval() is not transactional anyway, and a block at a
 * time: this process keeps the numbers it drew and hands each out once, so most requests draw none.
 * Numbers a process never hands out (it stopped) stay unused entries, VALID like any unused one,
 * as a rolled-back issuance's number always did. In the rare case an entry needs more than its
 * number (the list it falls in is not open yet, or it is the half-way entry that asks for the next
 * list), that entry is placed when handed out, in a short transaction of its own.
 */
export async function reserveStatusEntries(
  em: EntityManager,
  sql: Sql,
  issuerUrl: string,
  count: number,
): Promise<StatusEntry[]> {
  const pool = drawn.get(sql) ?? { rows: [] };
  drawn.set(sql, pool);
  while (pool.rows.length < count) {
    // One draw at a time: requests that find the block spent wait for the same draw.
    pool.drawing ??= sql
      .query<Numbered>(NUMBERED, [Math.max(count, BLOCK)])
      .then((rows) => void pool.rows.push(...rows))
      .finally(() => {
        pool.drawing = undefined;
      });
    await pool.drawing;
  }
  const entries: StatusEntry[] = [];
  for (const row of pool.rows.splice(0, count)) {
    const n = Number(row.n);
    const list = row.id ? (row as ListRow) : undefined;
    const position = list ? n - Number(list.seq_start) : -1;
    entries.push(
      list && position < list.size && position !== Math.floor(list.size / 2)
        ? entryAt(issuerUrl, list, position)
        : await em.transactional((tx) => place(tx, issuerUrl, row, DEFAULT_STATUS_LIST_SIZE)),
    );
  }
  return entries;
}

/** Numbers drawn per database (its Sql) and not yet handed out, in sequence order. */
const drawn = new WeakMap<Sql, { rows: Numbered[]; drawing?: Promise<void> | undefined }>();
const BLOCK = 16;

/** One entry: what `allocateStatusEntries` does for a single credential. */
export async function allocateStatusEntry(
  tx: EntityManager,
  issuerUrl: string,
  options: AllocateOptions = {},
): Promise<StatusEntry> {
  const [entry] = await allocateStatusEntries(tx, issuerUrl, 1, options);
  return entry as StatusEntry;
}

/** The entry of sequence number `n`, opening its list first when no open list holds it yet. */
async function place(
  tx: EntityManager,
  issuerUrl: string,
  numbered: Partial<ListRow> & { n: string },
  listSize: number,
): Promise<StatusEntry> {
  const n = Number(numbered.n);
  let list = numbered.id ? (numbered as ListRow) : undefined;
  for (;;) {
    const start = list ? Number(list.seq_start) : 0;
    if (list && n < start + list.size) {
      const position = n - start;
      // Once per list, half-way: the next list is opened before anyone has to wait for it.
      if (position === Math.floor(list.size / 2))
        await recordEffect(tx, 'status-list', { listId: list.id, openNext: String(listSize) });
      return entryAt(issuerUrl, list, position);
    }
    await openList(tx, list ? start + list.size : 0, listSize);
    [list] = await tx.execute<ListRow[]>(owningList('?'), [n]);
  }
}

/** The entry at `position` of a list: its index through the list's secret permutation. */
const entryAt = (issuerUrl: string, list: ListRow, position: number): StatusEntry => ({
  listId: list.id,
  idx: permuteIndex(list.seed, list.size, position),
  uri: statusListUri(issuerUrl, list.id),
});

/** Lists cover the sequence contiguously from 0, so the last one starting at or before n owns n unless n is past its end. */
const owningList = (n: string) =>
  `select id, seq_start, size, seed from status_list where seq_start <= ${n} order by seq_start desc limit 1`;

/** `count` fresh sequence numbers, each with the open list that holds it, if any. */
const NUMBERED = `select n.n, l.id, l.seq_start, l.size, l.seed
     from (select nextval('status_list_entry_seq') as n from generate_series(1, $1::int)) n
     left join lateral (${owningList('n.n')}) l on true
     order by n.n`;

/** Opens, in a transaction of its own, the list after `listId` (a status-list job asked for it). */
export async function openNextList(em: EntityManager, listId: string, size: number): Promise<void> {
  await em.transactional(async (tx) => {
    const [list] = await tx.execute<{ end: string }[]>(
      'select seq_start + size as end from status_list where id = ?',
      [listId],
    );
    if (!list) throw new Error(`status list ${listId} does not exist`);
    await openList(tx, Number(list.end), size);
  });
}

/**
 * Opens the list that follows the last one. Racing transactions insert the same `seq_start`; the
 * unique index makes all but one do nothing, and they then find the winner's list.
 */
async function openList(tx: EntityManager, seqStart: number, size: number): Promise<void> {
  const id = randomUUID();
  const inserted = await tx.execute<{ id: string }[]>(
    `insert into status_list (id, seq_start, size, bits, seed, statuses, version, created_at)
     values (?, ?, ?, ?, decode(?, 'hex'), decode(repeat('00', ?), 'hex'), 0, now())
     on conflict (seq_start) do nothing
     returning id`,
    [
      id,
      seqStart,
      size,
      STATUS_LIST_BITS,
      randomBytes(32).toString('hex'),
      statusByteLength(size, STATUS_LIST_BITS),
    ],
  );
  if (inserted.length === 0) return;
  await tx.execute('insert into status_list_token (list_id) values (?)', [id]);
  // Publish the empty list right away, so the first verifier finds a token already built.
  await recordEffect(tx, 'status-list', { listId: id });
}
