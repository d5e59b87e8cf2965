import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolSql, type Sql } from '../../server/persistence/sql.js';
import {
  allocateStatusEntries,
  allocateStatusEntry,
  reserveStatusEntries,
} from '../../server/status-list/allocate-status-entry.js';
import { setCredentialStatus } from '../../server/status-list/set-credential-status.js';
import { readStatus, StatusType } from '../../server/status-list/status-list-encoding.js';
import { employeePayload } from '../support/fixtures.js';
import { fetchList, until } from '../support/status-lists.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';

/**
 * Status lists under concurrency: allocation and status changes take no list-wide lock held through
 * commit, so transactions on one list never wait for each other, and nothing is lost or handed out
 * twice. "Held open" below means each transaction waits, before committing, until all the others
 * have done their part: with a list-wide lock the first would hold it and the others never arrive.
 */

/** Resolves once `n` callers have arrived; fails if they do not all arrive (they waited on each other). */
function barrier(n: number) {
  let arrived = 0;
  let open: () => void = () => {};
  let fail: (e: Error) => void = () => {};
  const all = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  const timer = setTimeout(
    () => fail(new Error(`only ${arrived} of ${n} transactions got there: they waited for each other`)),
    15_000,
  );
  return () => {
    if (++arrived === n) {
      clearTimeout(timer);
      open();
    }
    return all;
  };
}

const statusOf = (credential: string) => {
  const jwt = credential.split('~')[0] ?? '';
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()).status.status_list as {
    idx: number;
    uri: string;
  };
};

describe('status lists under concurrency', () => {
  let f: TenantFixture;
  beforeAll(async () => {
    f = await startTenantFixture({ DATABASE_POOL_MAX: '24' });
  });
  afterAll(() => f?.stop());
  const orm = () => f.t.service.context.orm;
  const issuerUrl = () => f.t.service.context.config.issuerUrl;

  it('gives many parallel issuances on one list distinct indexes', async () => {
    const issued = await Promise.all(
      Array.from({ length: 40 }, () =>
        f.integrator.createIssuance({
          body: {
            credential_configuration_id: 'LEARCredentialEmployee',
            payload: employeePayload(),
            delivery: 'direct',
          },
        }),
      ),
    );
    const statuses = issued.map((r) => (r.status === 201 ? statusOf(r.body.credential ?? '') : undefined));
    expect(statuses.every(Boolean)).toBe(true);
    expect(new Set(statuses.map((s) => s?.uri)).size).toBe(1);
    expect(new Set(statuses.map((s) => s?.idx)).size).toBe(40);

    // Revoked all at once through the API, every one of them ends up in the published list.
    const ids = issued.map((r) => (r.status === 201 ? (r.body.credential_id as string) : ''));
    const revoked = await Promise.all(ids.map((id) => f.integrator.revokeCredential({ params: { id } })));
    expect(revoked.every((r) => r.status === 200)).toBe(true);
    const listId = statuses[0]?.uri.split('/').at(-1) as string;
    const invalid = (bytes: Uint8Array) =>
      statuses.filter((s) => readStatus(bytes, 2, s?.idx as number) === StatusType.INVALID).length;
    const published = await until(
      () => fetchList(f.t.baseUrl, listId, f.t.service.context.signer),
      (l) => invalid(l.bytes) === 40,
    );
    expect(invalid(published.bytes)).toBe(40);
  });

  it('allocates in transactions held open together, without handing out an entry twice', async () => {
    // The list is open already (opening one is the rare moment others wait, once per list).
    await orm()
      .em.fork()
      .transactional((tx) => allocateStatusEntry(tx, issuerUrl()));
    const arrive = barrier(16);
    const entries = await Promise.all(
      Array.from({ length: 16 }, () =>
        orm()
          .em.fork()
          .transactional(async (tx) => {
            const entry = await allocateStatusEntry(tx, issuerUrl());
            await arrive();
            return entry;
          }),
      ),
    );
    expect(new Set(entries.map((e) => `${e.listId}/${e.idx}`)).size).toBe(16);
  });

  it('hands out numbers drawn a block at a time once each, across nodes and beside transactions', async () => {
    // Two nodes (two prepared-statement handles on the pool, each with its own drawn block) and the
    // transactional allocator, all at once: no entry twice, and a node draws a block, not a number.
    const nodes = [await poolSql(orm()), await poolSql(orm())];
    const reserved = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 2
          ? orm()
              .em.fork()
              .transactional((tx) => allocateStatusEntries(tx, issuerUrl(), 2))
          : reserveStatusEntries(orm().em.fork(), nodes[i % 3] as Sql, issuerUrl(), 2),
      ),
    );
    const entries = reserved.flat();
    expect(entries).toHaveLength(120);
    expect(new Set(entries.map((e) => `${e.listId}/${e.idx}`)).size).toBe(120);
    const before = await f.sql.query('select last_value from status_list_entry_seq');
    await reserveStatusEntries(orm().em.fork(), nodes[0] as Sql, issuerUrl(), 1);
    const after = await f.sql.query('select last_value from status_list_entry_seq');
    // The first node still held numbers of its last block: this one drew nothing.
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('publishes every one of concurrent changes to one list made in transactions held open together', async () => {
    const entries = await Promise.all(
      Array.from({ length: 16 }, () =>
        orm()
          .em.fork()
          .transactional((tx) => allocateStatusEntry(tx, issuerUrl())),
      ),
    );
    const listId = entries[0]?.listId as string;
    const mine = entries.filter((e) => e.listId === listId);
    const arrive = barrier(mine.length);
    await Promise.all(
      mine.map((e, i) =>
        orm()
          .em.fork()
          .transactional(async (tx) => {
            expect(await setCredentialStatus(tx, e, i % 2 ? 'invalid' : 'suspended')).toBe(true);
            await arrive();
          }),
      ),
    );
    const expected = (i: number) => (i % 2 ? StatusType.INVALID : StatusType.SUSPENDED);
    const landed = (bytes: Uint8Array) => mine.every((e, i) => readStatus(bytes, 2, e.idx) === expected(i));
    const published = await until(
      () => fetchList(f.t.baseUrl, listId, f.t.service.context.signer),
      (l) => landed(l.bytes),
    );
    expect(landed(published.bytes)).toBe(true);
  });
});
