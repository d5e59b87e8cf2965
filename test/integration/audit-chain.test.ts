import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealTenant } from '../../server/audit/audit-sealer.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

let t: TestService;
let sql: pg.Client;
beforeAll(async () => {
  t = await startTestService();
  sql = new pg.Client({ connectionString: t.db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql.end();
  await t.stop();
});

async function tenantWithHistory() {
  const body = acmeTenant();
  await t.admin.createTenant({ body });
  await t.admin.updateTenant({ params: { id: body.id }, body: { name: 'ACME Iberia' } });
  await t.admin.createToken({ params: { id: body.id }, body: { kind: 'scim' } });
  // Events are sealed into the chain by the worker shortly after their commit.
  await until(
    () => verify(body.id),
    (v) => 'unsealed' in v && v.unsealed === 0 && v.checked === 5,
  );
  return body.id;
}

const verify = async (id: string) => (await t.admin.verifyAuditChain({ params: { id } })).body;

/** Tampering as a database superuser would: around the append-only trigger. */
async function asSuperuser(statement: string, params: unknown[]) {
  await sql.query('alter table audit_event disable trigger audit_event_no_update');
  try {
    await sql.query(statement, params);
  } finally {
    await sql.query('alter table audit_event enable trigger audit_event_no_update');
  }
}

describe('audit hash chain', () => {
  it('verifies an untouched chain', async () => {
    const id = await tenantWithHistory();
    expect(await verify(id)).toMatchObject({
      valid: true,
      checked: 5,
      first_invalid_seq: null,
      reason: null,
      unsealed: 0,
      oldest_unsealed_at: null,
      checkpoint: { seq: 5, valid: true },
    });
  });

  it('refuses ordinary updates and deletes of audit rows', async () => {
    const id = await tenantWithHistory();
    await expect(
      sql.query('update audit_event set actor = $1 where tenant_id = $2', ['x', id]),
    ).rejects.toThrow(/append-only/);
    await expect(sql.query('delete from audit_event where tenant_id = $1', [id])).rejects.toThrow(
      /append-only/,
    );
  });

  it('catches a row altered behind its back', async () => {
    const id = await tenantWithHistory();
    await asSuperuser(
      `update audit_event set details = '{"changed":["nothing"]}' where tenant_id = $1 and seq = 4`,
      [id],
    );
    expect(await verify(id)).toMatchObject({
      valid: false,
      first_invalid_seq: 4,
      reason: expect.stringMatching(/altered/),
    });
  });

  it('catches a row removed from the middle', async () => {
    const id = await tenantWithHistory();
    await asSuperuser('delete from audit_event where tenant_id = $1 and seq = 2', [id]);
    expect(await verify(id)).toMatchObject({
      valid: false,
      first_invalid_seq: 2,
      reason: expect.stringMatching(/missing/),
    });
  });

  it('catches a log cut short: its newest events deleted', async () => {
    const id = await tenantWithHistory();
    await asSuperuser('delete from audit_event where tenant_id = $1 and seq >= 4', [id]);
    expect(await verify(id)).toMatchObject({
      valid: false,
      checked: 3,
      first_invalid_seq: 4,
      reason: expect.stringMatching(/cut short/),
    });
  });

  it('catches a forged row whose hash was recomputed but whose successor still points at the original', async () => {
    const id = await tenantWithHistory();
    const { rows } = await sql.query('select * from audit_event where tenant_id = $1 and seq = 3', [id]);
    const { hashEvent } = await import('../../server/audit/audit-log.js');
    const r = rows[0];
    const forged = {
      tenantId: id,
      seq: 3,
      actor: 'admin',
      action: r.action,
      subject: r.subject,
      details: { forged: true },
      createdAt: r.created_at,
      prevHash: r.prev_hash,
    };
    await asSuperuser('update audit_event set details = $1, hash = $2 where tenant_id = $3 and seq = 3', [
      JSON.stringify(forged.details),
      hashEvent(forged),
      id,
    ]);
    expect(await verify(id)).toMatchObject({
      valid: false,
      first_invalid_seq: 4,
      reason: expect.stringMatching(/link/),
    });
  });

  it('pages and filters events by action and time', async () => {
    const id = await tenantWithHistory();
    const first = await t.admin.listAuditEvents({ params: { id }, query: { limit: 2 } });
    expect(first.status === 200 && first.body.items.map((e) => e.seq)).toEqual([1, 2]);
    const cursor = first.status === 200 ? first.body.next_cursor : null;
    const rest = await t.admin.listAuditEvents({ params: { id }, query: { after: cursor ?? 0, limit: 10 } });
    expect(rest.status === 200 && rest.body.items.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(rest.status === 200 && rest.body.next_cursor).toBeNull();
    const issued = await t.admin.listAuditEvents({ params: { id }, query: { action: 'token.issued' } });
    expect(issued.status === 200 && issued.body.items).toHaveLength(3);
    const future = new Date(Date.now() + 60_000).toISOString();
    const none = await t.admin.listAuditEvents({ params: { id }, query: { since: future } });
    expect(none.status === 200 && none.body.items).toHaveLength(0);
    const all = await t.admin.listAuditEvents({ params: { id }, query: { until: future } });
    expect(all.status === 200 && all.body.items).toHaveLength(5);
  });
});

describe('signed checkpoints of the chain head', () => {
  const checkpointOf = async (id: string): Promise<string> =>
    (await sql.query('select checkpoint from audit_head where tenant_id = $1', [id])).rows[0].checkpoint;
  const replaceCheckpoint = (id: string, jws: string) =>
    sql.query('update audit_head set checkpoint = $1 where tenant_id = $2', [jws, id]);

  it('catches a checkpoint whose claims were changed under its signature', async () => {
    const id = await tenantWithHistory();
    const [header, payload, signature] = (await checkpointOf(id)).split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, sealed_at: new Date(0).toISOString() })).toString(
      'base64url',
    );
    await replaceCheckpoint(id, `${header}.${altered}.${signature}`);
    expect(await verify(id)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/checkpoint signature/),
      checkpoint: { seq: 5, valid: false },
    });
  });

  it('catches a checkpoint signed with a key that is not an audit key', async () => {
    const id = await tenantWithHistory();
    const [, payload] = (await checkpointOf(id)).split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = await t.service.context.signer.signJwt('issuer', { typ: 'audit-checkpoint+jwt' }, claims);
    await replaceCheckpoint(id, forged);
    expect(await verify(id)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/checkpoint signature/),
    });
  });

  it('catches an older genuine checkpoint put back, and seals nothing on top of it', async () => {
    const id = await tenantWithHistory();
    const older = await checkpointOf(id);
    await t.admin.updateTenant({ params: { id }, body: { name: 'ACME Portugal' } });
    await until(
      () => verify(id),
      (v) => 'unsealed' in v && v.unsealed === 0 && v.checked === 6,
    );
    await replaceCheckpoint(id, older);
    expect(await verify(id)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/not the chain head/),
      checkpoint: { seq: 6, valid: false },
    });

    await t.admin.updateTenant({ params: { id }, body: { name: 'ACME Andorra' } });
    const orm = t.service.context.orm;
    const outcome = await sealTenant(orm.em.fork(), t.service.context.signer, id, { wait: true });
    expect(outcome).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/not the chain head/) });
    expect(await verify(id)).toMatchObject({ valid: false, checked: 6, unsealed: 1 });
  });
});
