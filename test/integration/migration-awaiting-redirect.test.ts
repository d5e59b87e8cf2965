import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/persistence/migrations/index.js';
import { type Orm, openOrm } from '../../server/persistence/orm.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * Migration 20261126000100 on a database with same-device answers recorded the old way (verified
 * at once, beside a response code): one whose code can still be redeemed, and was not used by a
 * sign-in, waits for its redirect as new answers do; the rest keep their status.
 */
const MIGRATION = 'Migration20261126000100_awaiting_redirect';

describe(MIGRATION, () => {
  let db: TestDatabase;
  let orm: Orm;
  let sql: pg.Client;

  /** A session as the previous schema kept it: verified, with or without a live response code. */
  const session = (id: string, code: 'live' | 'expired' | 'none') =>
    sql.query(
      `insert into presentation_session (id, tenant_id, status, dcql_query, response_mode, nonce, state,
         client_id_prefix, result, response_code_hash, response_code_expires_at, created_at, expires_at, completed_at)
       values ($1, 't', 'verified', '{}', 'direct_post.jwt', 'n', $1, 'x509_hash', '{"claims":{}}', $2,
         now() + $3::interval, now(), now() + interval '5 minutes', now())`,
      [id, code === 'none' ? null : `hash-${id}`, code === 'expired' ? '-1 minute' : '4 minutes'],
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    orm = await openOrm({ url: db.url, poolMax: 2 });
    const previous = migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1]?.name as string;
    await orm.migrator.up({ to: previous });
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    await sql.query(
      "insert into tenant (id, name, delivery, created_at, updated_at) values ('t', 't', 'direct', now(), now())",
    );
    await sql.query(
      `insert into oidc_client (id, tenant_id, redirect_uris, token_endpoint_auth_method, secret_hash,
         credential_configuration_id, claims_mapping, created_at)
       values ('rp', 't', '[]', 'client_secret_basic', 'h', 'c', '{}', now())`,
    );
    await session('waiting', 'live');
    await session('signed-in', 'live');
    await sql.query(
      `insert into oidc_authorization (session_id, client_id, redirect_uri, nonce, code_challenge,
         browser_binding_hash, created_at)
       values ('signed-in', 'rp', 'https://rp.example/cb', 'n', 'c', 'b', now())`,
    );
    await session('late', 'expired');
    await session('cross-device', 'none');
    await orm.migrator.up();
  });
  afterAll(async () => {
    await sql?.end();
    await orm?.close();
    await db?.drop();
  });

  it('has a live, unused code wait for its redirect, and leaves the other sessions as they were', async () => {
    const { rows } = await sql.query('select id, status from presentation_session order by id');
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      waiting: 'awaiting_redirect',
      'signed-in': 'verified',
      late: 'verified',
      'cross-device': 'verified',
    });
  });

  it('takes awaiting_redirect as a status, and still no status it does not know', async () => {
    await expect(
      sql.query("update presentation_session set status = 'released' where id = 'late'"),
    ).rejects.toThrow(/presentation_session_status_check/);
  });
});
