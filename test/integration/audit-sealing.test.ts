import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAuditEvent } from '../../server/audit/audit-log.js';
import { sealTenant } from '../../server/audit/audit-sealer.js';
import { beforeCommit } from '../../server/persistence/before-commit.js';
import { sealPendingAudit } from '../../workers/audit-seal/seal-pending-audit.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { sleep } from '../support/until.js';

// No sealing timer: these tests seal by hand, to see each step.
let t: TestService;
let sql: pg.Client;
beforeAll(async () => {
  t = await startTestService({ env: { AUDIT_SEAL_INTERVAL_MS: '0' } });
  sql = new pg.Client({ connectionString: t.db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql.end();
  await t.stop();
});

const orm = () => t.service.context.orm;
const signer = () => t.service.context.signer;
const seal = (tenantId: string, limit?: number) =>
  sealTenant(orm().em.fork(), signer(), tenantId, limit ? { limit } : {});
const verify = async (id: string) => {
  const res = await t.admin.verifyAuditChain({ params: { id } });
  if (res.status !== 200) throw new Error(`verification answered ${res.status}`);
  return res.body;
};
const list = async (id: string) => {
  const res = await t.admin.listAuditEvents({ params: { id }, query: { limit: 1000 } });
  if (res.status !== 200) throw new Error(`listing answered ${res.status}`);
  return res.body.items;
};
const append = (tenantId: string, subject: string) =>
  orm()
    .em.fork()
    .transactional((tx) => appendAuditEvent(tx, { tenantId, actor: 'test', action: 'test.step', subject }));

/** A tenant whose creation left three unsealed events. */
async function newTenant() {
  const body = acmeTenant();
  await t.admin.createTenant({ body });
  return body.id;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('audit sealing', () => {
  it('lets two open transactions of one tenant append and commit without waiting on each other', async () => {
    const id = await newTenant();
    const inserted = [deferred(), deferred()];
    const release = deferred();
    const appendAndHold = (i: number) =>
      orm()
        .em.fork()
        .transactional(async (tx) => {
          await appendAuditEvent(tx, {
            tenantId: id,
            actor: 'test',
            action: 'test.concurrent',
            subject: `${i}`,
          });
          // Commit tasks run in the order they were saved: this one after the audit INSERT, before
          // COMMIT, so the transaction stays open here with its event written.
          beforeCommit(tx, async () => {
            inserted[i]?.resolve();
            await release.promise;
          });
        });
    const both = Promise.all([appendAndHold(0), appendAndHold(1)]);
    const bothWritten = await Promise.race([
      Promise.all(inserted.map((d) => d.promise)).then(() => true),
      sleep(5_000).then(() => false),
    ]);
    const { rows } = await sql.query(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    release.resolve();
    await both;
    expect(bothWritten).toBe(true);
    expect(rows[0].n).toBe(0);
    const concurrent = (await list(id)).filter((e) => e.action === 'test.concurrent');
    expect(concurrent.map((e) => e.subject).sort()).toEqual(['0', '1']);
    expect(concurrent.every((e) => e.seq === null && e.hash === null)).toBe(true);
  });

  it('seals in insertion order, in batches, each event chained to the one before, and signs the head', async () => {
    const id = await newTenant();
    for (const step of ['a', 'b', 'c', 'd', 'e']) await append(id, step);
    expect(await verify(id)).toMatchObject({ valid: true, checked: 0, unsealed: 8, checkpoint: null });
    expect((await verify(id)).oldest_unsealed_age_ms).toBeGreaterThanOrEqual(0);

    expect(await seal(id, 3)).toEqual({ kind: 'sealed', sealed: 3, seq: 3 });
    const partly = await list(id);
    expect(partly.map((e) => e.seq)).toEqual([1, 2, 3, null, null, null, null, null]);
    expect(await verify(id)).toMatchObject({
      valid: true,
      checked: 3,
      unsealed: 5,
      checkpoint: { seq: 3, valid: true },
    });

    expect(await seal(id)).toEqual({ kind: 'sealed', sealed: 5, seq: 8 });
    const events = await list(id);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.slice(0, 3).map((e) => e.action)).toEqual([
      'token.issued',
      'token.issued',
      'tenant.created',
    ]);
    expect(events.slice(3).map((e) => e.subject)).toEqual(['a', 'b', 'c', 'd', 'e']);
    events.slice(1).forEach((e, i) => {
      expect(e.prev_hash).toBe(events[i]?.hash);
    });
    const v = await verify(id);
    expect(v).toMatchObject({ valid: true, checked: 8, unsealed: 0, oldest_unsealed_at: null });
    expect(v.checkpoint).toMatchObject({ seq: 8, hash: events[7]?.hash, valid: true });
    expect(v.checkpoint?.kid).toBe(await signer().activeKid('audit'));
  });

  it('lets one of two sealers of a tenant seal: nothing is sealed twice or skipped', async () => {
    const id = await newTenant();
    await Promise.all(Array.from({ length: 40 }, (_, i) => append(id, `${i}`)));
    const outcomes = await Promise.all([seal(id), seal(id)]);
    const sealed = outcomes.reduce((n, o) => n + (o.kind === 'sealed' ? o.sealed : 0), 0);
    expect(sealed).toBe(43);
    expect((await list(id)).map((e) => e.seq)).toEqual(Array.from({ length: 43 }, (_, i) => i + 1));
    expect(await verify(id)).toMatchObject({ valid: true, checked: 43, unsealed: 0 });
  });

  it('signs a head from before checkpoints once its chain verifies, and not when it does not', async () => {
    const good = await newTenant();
    const broken = await newTenant();
    for (const id of [good, broken]) {
      await seal(id);
      await sql.query('update audit_head set checkpoint = null, sealed_at = null where tenant_id = $1', [id]);
      expect(await verify(id)).toMatchObject({
        valid: false,
        reason: expect.stringMatching(/no signed checkpoint/),
      });
    }
    await sql.query('alter table audit_event disable trigger audit_event_no_update');
    await sql
      .query(`update audit_event set actor = 'someone else' where tenant_id = $1 and seq = 2`, [broken])
      .finally(() => sql.query('alter table audit_event enable trigger audit_event_no_update'));

    expect(await seal(good)).toEqual({ kind: 'sealed', sealed: 0, seq: 3 });
    expect(await verify(good)).toMatchObject({
      valid: true,
      checked: 3,
      checkpoint: { seq: 3, valid: true },
    });
    expect(await seal(broken)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/event 2 was altered/),
    });
    expect(await verify(broken)).toMatchObject({ valid: false, checkpoint: { seq: 3, valid: false } });
  });

  it('goes on sealing other tenants when one cannot be sealed', async () => {
    // An event of a tenant that does not exist: its insert into the chain fails the foreign key.
    await sql.query(
      `insert into audit_pending (id, tenant_id, actor, action, subject, details, created_at)
       values (gen_random_uuid(), 'no-such-tenant', 'test', 'test.orphan', null, '{}', now())`,
    );
    const id = await newTenant();
    const refused: [string, string][] = [];
    try {
      await sealPendingAudit(orm().em.fork(), signer(), (tenant, reason) => refused.push([tenant, reason]));
    } finally {
      await sql.query(`delete from audit_pending where tenant_id = 'no-such-tenant'`);
    }
    expect(refused).toContainEqual(['no-such-tenant', expect.stringMatching(/sealing failed/)]);
    expect(refused.map(([tenant]) => tenant)).not.toContain(id);
    expect(await verify(id)).toMatchObject({ valid: true, checked: 3, unsealed: 0 });
  });
});
