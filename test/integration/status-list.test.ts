import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusListTokenPayload } from '../../contract/status-list/status-list-token.js';
import { loadConfig } from '../../server/config.js';
import { forkEntityManager } from '../../server/http/request-context.js';
import { KeyEncryption } from '../../server/keys/key-encryption.js';
import { LocalKeyStore } from '../../server/keys/local-key-store.js';
import type { Signer } from '../../server/keys/signer.js';
import { migrate, type Orm, openOrm } from '../../server/persistence/orm.js';
import type { Sql } from '../../server/persistence/sql.js';
import { allocateStatusEntry } from '../../server/status-list/allocate-status-entry.js';
import { setCredentialStatus } from '../../server/status-list/set-credential-status.js';
import { statusListRouter } from '../../server/status-list/status-list.routes.js';
import { decodeStatusList, readStatus, StatusType } from '../../server/status-list/status-list-encoding.js';
import { STATUS_LIST_TTL_SECONDS } from '../../server/status-list/status-list-token.js';
import type { JobContext } from '../../workers/job-context.js';
import type { MailTransport } from '../../workers/mail/mail-transport.js';
import { publishStatusListProcessor } from '../../workers/status-list/publish-status-list.processor.js';
import {
  allocate,
  fetchList,
  nonValid,
  setStatus,
  sleep,
  storedStatuses,
  until,
} from '../support/status-lists.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe.each([
  ['BullMQ', true],
  ['in-process runner', false],
])('status lists of the running service (%s)', (_name, redis) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ redis });
  });
  afterAll(() => t.stop());
  const ctx = () => t.service.context;
  const allocateHere = (count: number) => allocate(ctx().orm.em, ctx().config.issuerUrl, count);
  // Everything this file has set in the service's (single, default-size) list.
  const changed = new Map<number, number>();

  it('hands out distinct indexes in no particular order, all in one list served under the issuer', async () => {
    const entries = await allocateHere(200);
    const listId = entries[0]?.listId as string;
    expect(new Set(entries.map((e) => e.listId))).toEqual(new Set([listId]));
    expect(entries[0]?.uri).toBe(`${ctx().config.issuerUrl}/status-lists/${listId}`);
    const idx = entries.map((e) => e.idx);
    expect(new Set(idx).size).toBe(200);
    expect(idx.every((i) => Number.isInteger(i) && i >= 0 && i < 131_072)).toBe(true);
    const ascending = idx.filter((v, i) => i > 0 && v > (idx[i - 1] as number)).length;
    expect(ascending).toBeGreaterThan(60);
    expect(ascending).toBeLessThan(140);
    expect(idx.filter((v, i) => i > 0 && Math.abs(v - (idx[i - 1] as number)) === 1).length).toBeLessThan(3);
  });

  it('publishes a new list without waiting for a status change', async () => {
    const [entry] = await allocateHere(1);
    const row = await until(
      async () =>
        (
          await ctx()
            .orm.em.fork()
            .execute<{ token: string | null }[]>('select token from status_list_token where list_id = ?', [
              entry?.listId,
            ])
        )[0],
      (r) => !!r?.token,
    );
    expect(row?.token).toBeTruthy();
  });

  it('changes nothing when the transaction that set a status rolls back', async () => {
    const em = ctx().orm.em.fork();
    const [entry] = await allocateHere(1);
    if (!entry) throw new Error('no entry');
    const immediateEffects = async () =>
      (
        await em
          .fork()
          .execute<{ n: string }[]>(
            "select count(*) as n from outbox_message where topic = 'status-list' and payload->>'listId' = ? and available_at < now() + interval '1 hour'",
            [entry.listId],
          )
      )[0]?.n;
    const before = await storedStatuses(em, entry.listId);
    const effectsBefore = await immediateEffects();
    await expect(
      em.fork().transactional(async (tx) => {
        expect(await setCredentialStatus(tx, entry, 'invalid')).toBe(true);
        throw new Error('the revocation failed');
      }),
    ).rejects.toThrow('the revocation failed');
    const after = await storedStatuses(em, entry.listId);
    expect(Buffer.from(after.bytes).equals(Buffer.from(before.bytes))).toBe(true);
    expect(after.version).toBe(before.version);
    expect(await immediateEffects()).toBe(effectsBefore);
  });

  it('publishes a revocation: a signed statuslist+jwt where only that entry reads INVALID', async () => {
    const em = ctx().orm.em.fork();
    const [revoked, kept] = await allocateHere(2);
    if (!revoked || !kept) throw new Error('no entries');
    expect(await setStatus(em, revoked.listId, revoked.idx, 'invalid')).toBe(true);
    changed.set(revoked.idx, StatusType.INVALID);
    // Setting the same status again is no change.
    expect(await setStatus(em, revoked.listId, revoked.idx, 'invalid')).toBe(false);

    const published = await until(
      () => fetchList(t.baseUrl, revoked.listId, ctx().signer),
      (l) => readStatus(l.bytes, 2, revoked.idx) === StatusType.INVALID,
    );
    const { res, header, claims, bytes } = published;
    expect(res.headers.get('content-type')).toBe('application/statuslist+jwt');
    expect(header.typ).toBe('statuslist+jwt');
    expect(header.kid).toBe(await ctx().signer.activeKid('status-list'));
    expect(claims.sub).toBe(revoked.uri);
    expect(claims.status_list.bits).toBe(2);
    expect(claims.ttl).toBe(STATUS_LIST_TTL_SECONDS);
    expect(claims.exp).toBeGreaterThan(claims.iat + claims.ttl);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60);
    expect(bytes.length).toBe(131_072 / 4);
    expect(readStatus(bytes, 2, kept.idx)).toBe(StatusType.VALID);
    expect(nonValid(bytes)).toEqual(changed);

    // Cacheable for ttl, by anyone, from any origin.
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${claims.ttl}`);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('suspends and reinstates an entry', async () => {
    const em = ctx().orm.em.fork();
    const [entry] = await allocateHere(1);
    if (!entry) throw new Error('no entry');
    await setStatus(em, entry.listId, entry.idx, 'suspended');
    await until(
      () => fetchList(t.baseUrl, entry.listId, ctx().signer),
      (l) => readStatus(l.bytes, 2, entry.idx) === StatusType.SUSPENDED,
    );
    await setStatus(em, entry.listId, entry.idx, 'valid');
    const after = await until(
      () => fetchList(t.baseUrl, entry.listId, ctx().signer),
      (l) => readStatus(l.bytes, 2, entry.idx) === StatusType.VALID,
    );
    expect(nonValid(after.bytes)).toEqual(changed);
  });

  it('lands every one of concurrent changes to neighbouring entries of the same bytes', async () => {
    const em = ctx().orm.em.fork();
    const [entry] = await allocateHere(1);
    if (!entry) throw new Error('no entry');
    // Eight entries sharing two bytes (the indexes need not be allocated for this).
    const first = (Math.floor(entry.idx / 8) + 1) * 8;
    const targets = Array.from(
      { length: 8 },
      (_, i) => [first + i, i % 2 ? 'invalid' : 'suspended'] as const,
    );
    const before = await storedStatuses(em, entry.listId);
    await Promise.all(
      targets.map(([idx, status]) =>
        em.fork().transactional(async (tx) => {
          await setCredentialStatus(tx, { listId: entry.listId, idx }, status);
          await sleep(20); // hold the transaction open, so that the others queue behind it
        }),
      ),
    );
    for (const [idx, status] of targets) changed.set(idx, status === 'invalid' ? 1 : 2);
    const stored = await storedStatuses(em, entry.listId);
    expect(stored.version).toBe(before.version + 8);
    for (const [idx, status] of targets)
      expect(readStatus(stored.bytes, 2, idx)).toBe(status === 'invalid' ? 1 : 2);
    const published = await until(
      () => fetchList(t.baseUrl, entry.listId, ctx().signer),
      (l) => nonValid(l.bytes).size === changed.size,
    );
    expect(nonValid(published.bytes)).toEqual(changed);
  });

  it('answers 404 problem details for lists that do not exist', async () => {
    for (const id of ['7d0f4a1e-58b5-4a6e-9a51-0b4c8e0b9f00', 'not-a-list']) {
      const res = await fetch(`${t.baseUrl}/status-lists/${id}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await res.json()).toMatchObject({ status: 404, type: 'urn:credservice:problem:not-found' });
    }
  });

  it('refuses entries outside a list and lists that do not exist', async () => {
    const [entry] = await allocateHere(1);
    if (!entry) throw new Error('no entry');
    const em = ctx().orm.em.fork();
    await expect(setStatus(em, entry.listId, 131_072, 'invalid')).rejects.toThrow(RangeError);
    await expect(setStatus(em, '7d0f4a1e-58b5-4a6e-9a51-0b4c8e0b9f00', 0, 'invalid')).rejects.toThrow(
      'does not exist',
    );
    await expect(setCredentialStatus(em, entry, 'invalid')).rejects.toThrow('inside the transaction');
  });
});

describe('status lists with no worker running', () => {
  let db: TestDatabase;
  let orm: Orm;
  let keys: LocalKeyStore;
  const small = { listSize: 16 };
  const config = loadConfig({ PUBLIC_URL: 'https://issuer.example' });
  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await openOrm({ url: db.url, poolMax: 4 });
    await migrate(orm, db.url);
    keys = new LocalKeyStore(orm, new KeyEncryption('test-key-encryption-key'));
    await keys.ensureKeys();
  });
  const ctx = () => ({ config, signer: keys });
  afterAll(async () => {
    await orm.close();
    await db.drop();
  });

  /** The status-list processor, run by hand with a signer that counts the tokens it signs. */
  function processor() {
    let signed = 0;
    const inner = ctx().signer;
    const signer: Signer = {
      signJwt: (...a: Parameters<Signer['signJwt']>) => {
        signed++;
        return inner.signJwt(...a);
      },
      sign: (...a: Parameters<Signer['sign']>) => inner.sign(...a),
      activeKid: (purpose) => inner.activeKid(purpose),
      certificateChain: (purpose) => inner.certificateChain(purpose),
      publicJwks: (purpose) => inner.publicJwks(purpose),
    };
    const job = (): JobContext => ({
      em: orm.em.fork(),
      config: ctx().config,
      logger: pino({ level: 'silent' }),
      signer,
      mail: null as unknown as MailTransport, // the status-list processor sends no mail
      sql: null as unknown as Sql, // and reads through its EntityManager
    });
    return { run: (listId: string) => publishStatusListProcessor({ listId }, job()), signed: () => signed };
  }

  /** Allocates until a new list opens, then `count` entries of it in all. */
  async function freshList(count = 1) {
    const known = new Set(
      (await orm.em.fork().execute<{ id: string }[]>('select id from status_list')).map((r) => r.id),
    );
    let [entry] = await allocate(orm.em, config.issuerUrl, 1, small);
    while (entry && known.has(entry.listId)) [entry] = await allocate(orm.em, config.issuerUrl, 1, small);
    if (!entry) throw new Error('no entry');
    const entries = [entry, ...(await allocate(orm.em, config.issuerUrl, count - 1, small))];
    if (entries.some((e) => e.listId !== entry.listId)) throw new Error('the list filled up');
    return { listId: entry.listId, entries };
  }

  const token = async (listId: string) =>
    (
      await orm.em
        .fork()
        .execute<{ token: string | null; version: string | null; issued_at: Date | null }[]>(
          'select token, version, issued_at from status_list_token where list_id = ?',
          [listId],
        )
    )[0];

  it('fills a list of 16 with a permutation of its indexes, then opens the next list', async () => {
    const entries = await allocate(orm.em, config.issuerUrl, 17, small);
    const firstList = entries[0]?.listId;
    const inFirst = entries.filter((e) => e.listId === firstList);
    expect(inFirst).toHaveLength(16);
    expect(inFirst.map((e) => e.idx).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(inFirst.map((e) => e.idx)).not.toEqual(Array.from({ length: 16 }, (_, i) => i));
    const next = entries[16];
    expect(next?.listId).not.toBe(firstList);
    expect(next?.uri).toBe(`${ctx().config.issuerUrl}/status-lists/${next?.listId}`);
  });

  it('never hands out an entry twice when many transactions allocate at once across list boundaries', async () => {
    const entries = await Promise.all(
      Array.from({ length: 60 }, () =>
        orm.em.fork().transactional((tx) => allocateStatusEntry(tx, ctx().config.issuerUrl, small)),
      ),
    );
    const keys = entries.map((e) => `${e.listId}/${e.idx}`);
    expect(new Set(keys).size).toBe(60);
    const perList = new Map<string, number>();
    for (const e of entries) perList.set(e.listId, (perList.get(e.listId) ?? 0) + 1);
    expect([...perList.values()].every((n) => n <= 16)).toBe(true);
    expect(entries.every((e) => e.idx >= 0 && e.idx < 16)).toBe(true);
  });

  it('coalesces a burst of jobs into one build, and skips when nothing changed', async () => {
    const { listId, entries } = await freshList(16);
    for (const e of entries.slice(0, 10)) await setStatus(orm.em, listId, e.idx, 'invalid');
    const p = processor();
    // One job per change (and one for the list's opening), all at once.
    await Promise.all(Array.from({ length: 11 }, () => p.run(listId)));
    expect(p.signed()).toBe(1);
    const stored = await token(listId);
    const { version } = await storedStatuses(orm.em, listId);
    expect(Number(stored?.version)).toBe(version);
    const payload = StatusListTokenPayload.parse(
      JSON.parse(Buffer.from(stored?.token?.split('.')[1] ?? '', 'base64url').toString()),
    );
    const bytes = decodeStatusList(payload.status_list.lst);
    entries.forEach((e, i) => {
      expect(readStatus(bytes, 2, e.idx)).toBe(i < 10 ? StatusType.INVALID : StatusType.VALID);
    });

    await p.run(listId);
    expect(p.signed()).toBe(1);
  });

  it('keeps one renewal scheduled, and re-signs an unchanged list once its token is half-way to expiry', async () => {
    const { listId } = await freshList();
    const p = processor();
    await p.run(listId);
    const first = await token(listId);
    const renewals = await orm.em
      .fork()
      .execute<{ at: Date }[]>(
        "select available_at as at from outbox_message where topic = 'status-list' and payload->>'listId' = ? and available_at > now()",
        [listId],
      );
    expect(renewals).toHaveLength(1);
    const renewAt = new Date(renewals[0]?.at as Date).getTime();
    expect(renewAt - new Date(first?.issued_at as Date).getTime()).toBe(12 * 3600 * 1000);

    await p.run(listId); // nothing changed, not due: no build, no second renewal
    expect(p.signed()).toBe(1);
    // Pretend half a day went by.
    await orm.em
      .fork()
      .execute(
        "update status_list_token set issued_at = issued_at - interval '13 hours', refresh_at = refresh_at - interval '13 hours' where list_id = ?",
        [listId],
      );
    await p.run(listId);
    expect(p.signed()).toBe(2);
    const second = await token(listId);
    expect(second?.token).not.toBe(first?.token);
    expect(second?.version).toBe(first?.version);
  });

  it('has the worker open the next list half-way through one, before any issuance needs it', async () => {
    const { listId } = await freshList(8); // positions 0 to 7 of a list of 16
    const asked = () =>
      orm.em
        .fork()
        .execute<{ payload: Record<string, string> }[]>(
          "select payload from outbox_message where topic = 'status-list' and payload->>'listId' = ? and payload->>'openNext' is not null",
          [listId],
        );
    expect(await asked()).toHaveLength(0);
    await allocate(orm.em, config.issuerUrl, 1, small); // position 8: half-way
    const [message] = await asked();
    expect(message?.payload.openNext).toBe('16');
    const next = () =>
      orm.em
        .fork()
        .execute<{ id: string }[]>(
          'select n.id from status_list l join status_list n on n.seq_start = l.seq_start + l.size where l.id = ?',
          [listId],
        );
    expect(await next()).toHaveLength(0);
    await publishStatusListProcessor(message?.payload ?? {}, {
      em: orm.em.fork(),
      config,
      logger: pino({ level: 'silent' }),
      signer: keys,
      mail: null as unknown as MailTransport,
      sql: null as unknown as Sql,
    });
    const [opened] = await next();
    expect(opened).toBeDefined();
    // The rest of the list, then the next allocation lands in the list opened ahead.
    const rest = await allocate(orm.em, config.issuerUrl, 8, small);
    expect(rest.map((e) => e.listId)).toEqual([...Array(7).fill(listId), opened?.id]);
  });

  it('builds on the request path only when a list has no token yet', async () => {
    // No worker runs here: a new list has no token.
    const { listId } = await freshList();
    expect((await token(listId))?.token).toBeNull();
    const app = express().use(forkEntityManager(orm)).use('/status-lists', statusListRouter(ctx()));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const first = await fetchList(baseUrl, listId, ctx().signer);
      expect(first.claims.sub).toBe(`${ctx().config.issuerUrl}/status-lists/${listId}`);
      const stored = await token(listId);
      expect(stored?.token).toBeTruthy();
      // Served from storage from now on, even after a change the worker has not published yet.
      await setStatus(orm.em, listId, 0, 'invalid');
      const again = await fetch(`${baseUrl}/status-lists/${listId}`);
      expect(await again.text()).toBe(stored?.token);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
