import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimClient } from '../support/scim-client.js';
import { sleep } from '../support/status-lists.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The totalResults of an unfiltered SCIM list comes from the tenant's counter, kept by triggers in
 * the transaction of every insert and delete (migration 20261123000600). It must stay exact whatever
 * writes the rows: the API, concurrent requests, failed requests, rolled-back and bulk statements.
 */

const user = (name: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: name,
  name: { givenName: 'Ana', familyName: name },
  emails: [{ primary: true, type: 'work', value: name }],
  active: true,
});
const group = (name: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  displayName: name,
});

/** Users inserted straight in SQL, in one statement, as a bulk load or another writer would. */
const insertUsers = (c: pg.Client, tenantId: string, prefix: string, n: number) =>
  c.query(
    `insert into scim_user (id, tenant_id, user_name, active, resource, created_at, updated_at, version)
     select gen_random_uuid(), $1, $2 || i, true, '{}'::jsonb, now(), now(), 1 from generate_series(1, $3) as i`,
    [tenantId, prefix, n],
  );

describe('SCIM list totals kept by the per-tenant counter', () => {
  let t: TestService;
  let sql: pg.Client;
  const scim: Record<string, ReturnType<typeof scimClient>> = {};
  beforeAll(async () => {
    t = await startTestService();
    sql = new pg.Client({ connectionString: t.db.url });
    await sql.connect();
    for (const id of ['count-a', 'count-b']) {
      // No mandator: users get no credential, which keeps these writes to the directory itself.
      const created = await t.admin.createTenant({ body: { id, name: id, delivery: 'direct' } });
      if (created.status !== 201) throw new Error(`tenant ${id}: ${created.status}`);
      scim[id] = scimClient(t.baseUrl, id, created.body.scim_token);
    }
  });
  afterAll(async () => {
    await sql?.end();
    await t?.stop();
  });

  const total = async (tenantId: string, type: 'Users' | 'Groups') => {
    const res = await scim[tenantId]?.get(`/${type}?count=0`);
    expect(res?.status).toBe(200);
    return res?.body.totalResults as number;
  };
  const rows = async (tenantId: string, table: 'scim_user' | 'scim_group') =>
    Number(
      (await sql.query(`select count(*) as n from ${table} where tenant_id = $1`, [tenantId])).rows[0].n,
    );
  const counter = async (tenantId: string, type: 'User' | 'Group') =>
    Number(
      (
        await sql.query(
          'select coalesce(sum(n), 0) as n from scim_resource_count where tenant_id = $1 and resource_type = $2',
          [tenantId, type],
        )
      ).rows[0].n,
    );
  /** The counter, and the API's total, equal the rows there are. */
  const expectExact = async (tenantId: string) => {
    const users = await rows(tenantId, 'scim_user');
    const groups = await rows(tenantId, 'scim_group');
    expect([await counter(tenantId, 'User'), await counter(tenantId, 'Group')]).toEqual([users, groups]);
    expect([await total(tenantId, 'Users'), await total(tenantId, 'Groups')]).toEqual([users, groups]);
  };

  it('stays exact across concurrent creates, deletes and failed creates, per tenant', async () => {
    const a = scim['count-a'] as ReturnType<typeof scimClient>;
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => a.post('/Users', user(`u${i}@a.test`))),
    );
    expect(created.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(await total('count-a', 'Users')).toBe(12);
    expect((await a.post('/Users', user('u0@a.test'))).status).toBe(409);
    await Promise.all(created.slice(0, 4).map((r) => a.delete(`/Users/${r.body.id}`)));
    expect(await total('count-a', 'Users')).toBe(8);

    const groups = await Promise.all(['g1', 'g2', 'g3'].map((g) => a.post('/Groups', group(g))));
    expect(groups.map((r) => r.status)).toEqual([201, 201, 201]);
    expect((await a.delete(`/Groups/${groups[0]?.body.id}`)).status).toBe(204);
    expect(await total('count-a', 'Groups')).toBe(2);

    expect((await scim['count-b']?.post('/Users', user('u0@a.test')))?.status).toBe(201);
    expect(await total('count-b', 'Users')).toBe(1);
    await expectExact('count-a');
    await expectExact('count-b');
  });

  it('stays exact across a rolled-back transaction and bulk statements', async () => {
    const before = await total('count-a', 'Users');
    await sql.query('begin');
    await insertUsers(sql, 'count-a', 'rolled-back-', 5);
    await sql.query('rollback');
    expect(await total('count-a', 'Users')).toBe(before);

    await insertUsers(sql, 'count-a', 'bulk-', 100);
    expect(await total('count-a', 'Users')).toBe(before + 100);
    await sql.query("delete from scim_user where tenant_id = 'count-a' and user_name like 'bulk-%'");
    expect(await total('count-a', 'Users')).toBe(before);
    await expectExact('count-a');
  });

  it('lets transactions of one tenant add users without waiting for each other', async () => {
    const before = await total('count-a', 'Users');
    const writers = await Promise.all(
      [1, 2, 3].map(async () => {
        const c = new pg.Client({ connectionString: t.db.url });
        await c.connect();
        await c.query('begin');
        return c;
      }),
    );
    // Each inserts while the others hold their uncommitted inserts: none may wait for another's commit.
    const inserted = Promise.all(writers.map((c, i) => insertUsers(c, 'count-a', `open-${i}-`, 1)));
    const waited = await Promise.race([inserted.then(() => false), sleep(5_000).then(() => true)]);
    for (const c of writers) await c.query(waited ? 'rollback' : 'commit').catch(() => undefined);
    await Promise.all(writers.map((c) => c.end()));
    expect(waited).toBe(false);
    expect(await total('count-a', 'Users')).toBe(before + 3);
    await expectExact('count-a');
  });

  it('counts a filtered list by its matches', async () => {
    const res = await scim['count-a']?.get(`/Users?filter=${encodeURIComponent('userName eq "u5@a.test"')}`);
    expect(res?.body.totalResults).toBe(1);
  });
});
