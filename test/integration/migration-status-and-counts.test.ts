import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/persistence/migrations/index.js';
import { type Orm, openOrm } from '../../server/persistence/orm.js';
import { currentStatuses } from '../../server/status-list/status-list-changes.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * Migration 20261123000600 on a database that already has data: SCIM counters start from the rows
 * there are, status lists keep their bytes (now stored uncompressed out of line), and both go on
 * working afterwards.
 */
const MIGRATION = 'Migration20261123000600_status_and_counts';

describe(MIGRATION, () => {
  let db: TestDatabase;
  let orm: Orm;
  let sql: pg.Client;
  const listId = randomUUID();
  const statuses = randomBytes(32);

  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await openOrm({ url: db.url, poolMax: 2 });
    const previous = migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1]?.name as string;
    await orm.migrator.up({ to: previous });
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    for (const [tenant, users, groups] of [
      ['t1', 3, 1],
      ['t2', 2, 0],
    ] as const) {
      await sql.query(
        "insert into tenant (id, name, delivery, created_at, updated_at) values ($1, $1, 'direct', now(), now())",
        [tenant],
      );
      await sql.query(
        `insert into scim_user (id, tenant_id, user_name, active, resource, created_at, updated_at, version)
         select gen_random_uuid(), $1, 'u' || i, true, '{}', now(), now(), 1 from generate_series(1, $2) i`,
        [tenant, users],
      );
      await sql.query(
        `insert into scim_group (id, tenant_id, display_name, resource, created_at, updated_at, version)
         select gen_random_uuid(), $1, 'g' || i, '{}', now(), now(), 1 from generate_series(1, $2) i`,
        [tenant, groups],
      );
    }
    await sql.query(
      `insert into status_list (id, seq_start, size, bits, seed, statuses, version, created_at)
       values ($1, 0, 128, 2, $2, $3, 7, now())`,
      [listId, randomBytes(32), statuses],
    );
    await orm.migrator.up();
  });
  afterAll(async () => {
    await sql?.end();
    await orm?.close();
    await db?.drop();
  });

  const count = async (tenant: string, type: string) =>
    Number(
      (
        await sql.query(
          'select coalesce(sum(n), 0) as n from scim_resource_count where tenant_id = $1 and resource_type = $2',
          [tenant, type],
        )
      ).rows[0].n,
    );

  it('starts each tenant’s counters from the rows it has, and keeps them from then on', async () => {
    expect([await count('t1', 'User'), await count('t1', 'Group')]).toEqual([3, 1]);
    expect([await count('t2', 'User'), await count('t2', 'Group')]).toEqual([2, 0]);
    await sql.query("delete from scim_user where tenant_id = 't1' and user_name = 'u1'");
    expect(await count('t1', 'User')).toBe(2);
  });

  it('keeps the status lists’ bytes and version, stored uncompressed out of line', async () => {
    const current = await currentStatuses(orm.em.fork(), listId);
    expect(Buffer.from(current.bytes).equals(statuses)).toBe(true);
    expect(current.version).toBe(7);
    const storage = await sql.query(
      "select attstorage from pg_attribute where attrelid = 'status_list'::regclass and attname = 'statuses'",
    );
    expect(storage.rows[0].attstorage).toBe('e');
  });
});
