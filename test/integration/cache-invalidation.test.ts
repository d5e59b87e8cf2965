import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

/**
 * Two nodes on one database, each with its own in-process caches: a change made through one node
 * reaches the other's caches at once (LISTEN/NOTIFY), long before the 30 s safety-net TTL. Each
 * check first makes node B cache the old value, so a missing invalidation would show as B answering
 * with it until the timeout here (5 s) runs out.
 */
const PROMPTLY_MS = 5_000;

let db: TestDatabase;
let a: TestService;
let b: TestService;
let sql: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase();
  a = await startTestService({ db });
  b = await startTestService({ db });
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await b?.stop();
  await a?.stop();
  await db?.drop();
});

async function newTenant() {
  const created = await a.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
  return created.body;
}

const whoAmIOn = (t: TestService, token: string) =>
  createIntegratorClient({ baseUrl: t.baseUrl, token }).whoAmI();

describe('caches of two nodes on one database', () => {
  it('serves a tenant from the cache: a change behind the service’s back is not seen, one through it is', async () => {
    const tenant = await newTenant();
    expect((await whoAmIOn(b, tenant.integrator_token)).body).toMatchObject({ name: 'ACME Corp' });
    await sql.query("update tenant set name = 'Changed in SQL' where id = $1", [tenant.id]);
    expect((await whoAmIOn(b, tenant.integrator_token)).body).toMatchObject({ name: 'ACME Corp' });

    await a.admin.updateTenant({ params: { id: tenant.id }, body: { name: 'Renamed on A' } });
    const seen = await until(
      () => whoAmIOn(b, tenant.integrator_token),
      (r) => r.status === 200 && r.body.name === 'Renamed on A',
      PROMPTLY_MS,
    );
    expect(seen.body).toMatchObject({ name: 'Renamed on A' });
  });

  it('stops accepting a token on every node as soon as one node revokes it', async () => {
    const tenant = await newTenant();
    expect((await whoAmIOn(b, tenant.integrator_token)).status).toBe(200);
    const tokens = await a.admin.listTokens({ params: { id: tenant.id } });
    const integrator =
      tokens.status === 200 ? tokens.body.items.find((x) => x.kind === 'integrator') : undefined;
    await a.admin.revokeToken({ params: { id: tenant.id, tokenId: integrator?.id ?? '' } });
    expect((await whoAmIOn(a, tenant.integrator_token)).status).toBe(401);
    const onB = await until(
      () => whoAmIOn(b, tenant.integrator_token),
      (r) => r.status === 401,
      PROMPTLY_MS,
    );
    expect(onB.status).toBe(401);
  });

  it('rereads provisioning settings and credential configurations changed on the other node', async () => {
    const tenant = await newTenant();
    const onB = b.admin;
    const before = await onB.getProvisioning({ params: { id: tenant.id } });
    if (before.status !== 200) throw new Error('no settings');
    await a.admin.putProvisioning({
      params: { id: tenant.id },
      body: { ...before.body, renew_on_every_put: !before.body.renew_on_every_put },
    });
    const settings = await until(
      () => onB.getProvisioning({ params: { id: tenant.id } }),
      (r) => r.status === 200 && r.body.renew_on_every_put !== before.body.renew_on_every_put,
      PROMPTLY_MS,
    );
    expect(settings.body).toMatchObject({ renew_on_every_put: !before.body.renew_on_every_put });

    const badge = (validity: number) => ({
      payload_schema: { type: 'object', properties: { holder: { type: 'string' } } },
      selectively_disclosable: ['holder'],
      validity_seconds: validity,
      display: [{ locale: 'en', name: 'Badge' }],
      claims: [],
    });
    await a.admin.putCredentialConfiguration({ params: { configurationId: 'Badge' }, body: badge(3600) });
    const first = await onB.getCredentialConfiguration({ params: { configurationId: 'Badge' } });
    expect(first.body).toMatchObject({ validity_seconds: 3600 });
    await a.admin.putCredentialConfiguration({ params: { configurationId: 'Badge' }, body: badge(60) });
    const second = await until(
      () => onB.getCredentialConfiguration({ params: { configurationId: 'Badge' } }),
      (r) => r.status === 200 && r.body.validity_seconds === 60,
      PROMPTLY_MS,
    );
    expect(second.body).toMatchObject({ validity_seconds: 60 });
  });

  it('publishes a key rotated on one node from the other at once', async () => {
    const jwksOfB = async () =>
      (
        (await (await fetch(`${b.baseUrl}/.well-known/jwt-vc-issuer`)).json()) as {
          jwks: { keys: { kid: string }[] };
        }
      ).jwks.keys.map((k) => k.kid);
    const rotated = await a.admin.rotateSigningKey({ params: { purpose: 'issuer' } });
    if (rotated.status !== 201) throw new Error(`rotate: ${rotated.status}`);
    const kids = await until(jwksOfB, (k) => k.includes(rotated.body.kid), PROMPTLY_MS);
    expect(kids).toContain(rotated.body.kid);
  });

  it('drops what it cached when its LISTEN connection is lost, and caches again once it is back', async () => {
    const tenant = await newTenant();
    expect((await whoAmIOn(b, tenant.integrator_token)).body).toMatchObject({ name: 'ACME Corp' });
    // Both nodes' listeners go; a change made meanwhile is never announced to anyone.
    await sql.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'credservice-cache' and datname = current_database()",
    );
    await sql.query("update tenant set name = 'Changed unheard' where id = $1", [tenant.id]);
    const seen = await until(
      () => whoAmIOn(b, tenant.integrator_token),
      (r) => r.status === 200 && r.body.name === 'Changed unheard',
      PROMPTLY_MS,
    );
    expect(seen.body).toMatchObject({ name: 'Changed unheard' });
    // Reconnected, B caches again: a change behind its back goes unseen once more.
    let n = 0;
    const cachedAgain = await until(
      async () => {
        await whoAmIOn(b, tenant.integrator_token);
        const behind = `Behind its back ${++n}`;
        await sql.query('update tenant set name = $2 where id = $1', [tenant.id, behind]);
        const r = await whoAmIOn(b, tenant.integrator_token);
        return r.status === 200 && r.body.name !== behind;
      },
      (stale) => stale,
      PROMPTLY_MS,
    );
    expect(cachedAgain).toBe(true);
  });
});
