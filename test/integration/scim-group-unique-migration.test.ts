import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Orm, openOrm } from '../../server/persistence/orm.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * The migration that makes group names unique per tenant, run on a database that already holds
 * groups sharing a name: the oldest keeps it, later ones are renamed, no group or member is lost,
 * other tenants are untouched, and from then on the database refuses a second group of a name.
 */
let database: TestDatabase;
let orm: Orm;
let sql: pg.Client;
const ids = {
  first: randomUUID(),
  second: randomUUID(),
  third: randomUUID(),
  staff: randomUUID(),
  globex: randomUUID(),
};

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await openOrm({ url: database.url, poolMax: 2 });
  // Up to the directory's tables, then the data the migration meets, then every later migration.
  await orm.migrator.up({ to: 'Migration20261122000300_directory' });
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  for (const tenant of ['acme', 'globex']) {
    await sql.query(
      `insert into tenant (id, name, delivery, created_at, updated_at) values ($1, $1, 'email', now(), now())`,
      [tenant],
    );
  }
  const groups: [string, string, string, string][] = [
    [ids.first, 'acme', 'Approvers', '2024-01-01'],
    [ids.second, 'acme', 'approvers', '2024-02-01'],
    [ids.third, 'acme', 'APPROVERS', '2024-03-01'],
    [ids.staff, 'acme', 'Staff', '2024-01-15'],
    [ids.globex, 'globex', 'approvers', '2024-05-01'],
  ];
  for (const [id, tenant, name, created] of groups) {
    await sql.query(
      `insert into scim_group (id, tenant_id, display_name, external_id, resource, created_at, updated_at, version)
       values ($1, $2, $3, null, $4, $5, $5, 1)`,
      [id, tenant, name, { displayName: name }, created],
    );
  }
  await orm.migrator.up();
});
afterAll(async () => {
  await sql?.end();
  await orm?.close();
  await database?.drop();
});

describe('Migration20261123000200_scim_group_unique', () => {
  it('keeps the oldest name and renames later duplicates, in the column and the resource alike', async () => {
    const rows = await sql.query<{ id: string; display_name: string; name_in_resource: string }>(
      `select id, display_name, resource->>'displayName' as name_in_resource from scim_group`,
    );
    const nameOf = new Map(rows.rows.map((r) => [r.id, r.display_name]));
    expect(rows.rows).toHaveLength(5);
    for (const r of rows.rows) expect(r.name_in_resource).toBe(r.display_name);
    expect(nameOf.get(ids.first)).toBe('Approvers');
    expect(nameOf.get(ids.second)).toBe(`approvers (duplicate ${ids.second})`);
    expect(nameOf.get(ids.third)).toBe(`APPROVERS (duplicate ${ids.third})`);
    expect(nameOf.get(ids.staff)).toBe('Staff');
    expect(nameOf.get(ids.globex)).toBe('approvers');
  });

  it('leaves the database refusing a second group of a name, ignoring case, within a tenant only', async () => {
    const insert = (tenant: string, name: string) =>
      sql.query(
        `insert into scim_group (id, tenant_id, display_name, resource, created_at, updated_at, version)
         values ($1, $2, $3, '{}', now(), now(), 1)`,
        [randomUUID(), tenant, name],
      );
    await expect(insert('acme', 'STAFF')).rejects.toMatchObject({ code: '23505' });
    await expect(insert('globex', 'Staff')).resolves.toBeDefined();
  });
});
