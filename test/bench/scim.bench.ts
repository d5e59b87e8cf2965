import pg from 'pg';
import { patchOp } from '../support/scim-client.js';
import { expectStatus } from './harness.js';
import { createBenchTenants, inParallel, type Scenario, type ScenarioContext, tenantOf } from './scenario.js';

const BULK = 100_000;

const user = (name: string, givenName = 'Ana') => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: `${name}@bench.test`,
  name: { givenName, familyName: `Family ${name}` },
  emails: [{ primary: true, type: 'work', value: `${name}@bench.test` }],
  active: true,
});

/** Users created by the POST figure of each pass, replaced and deactivated by the next two. */
const created = new Map<string, string[]>();

async function createUser(ctx: ScenarioContext, i: number) {
  const res = await tenantOf(ctx, i).scim.post('/Users', user(`${ctx.pass}-u${i}`));
  expectStatus(res, 201, 'create');
  const ids = created.get(ctx.pass) ?? [];
  created.set(ctx.pass, ids);
  ids[i] = res.body.id;
}

/** The ids of users 0..total-1 of this pass, creating any the POST figure did not. */
async function usersOf(ctx: ScenarioContext, total: number) {
  await inParallel(total, 8, async (i) => (created.get(ctx.pass)?.[i] ? undefined : createUser(ctx, i)));
  return created.get(ctx.pass) as string[];
}

/** Seeds a tenant with BULK users in one INSERT … SELECT: list figures need volume, not provisioning. */
async function seed(databaseUrl: string, tenantId: string) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  await c.query(
    `insert into scim_user (id, tenant_id, user_name, external_id, active, display_name, given_name, family_name,
                            resource, created_at, updated_at, version)
     select gen_random_uuid(), $1, 'bulk' || i || '@bench.test', 'ext-' || i, true, 'Bulk ' || i, 'Bulk', 'Family' || (i % 1000),
            jsonb_build_object('userName', 'bulk' || i || '@bench.test', 'externalId', 'ext-' || i,
              'name', jsonb_build_object('givenName', 'Bulk', 'familyName', 'Family' || (i % 1000)),
              'emails', jsonb_build_array(jsonb_build_object('value', 'bulk' || i || '@bench.test', 'type', 'work', 'primary', true))),
            now() - (i || ' seconds')::interval, now(), 1
     from generate_series(1, $2) as i`,
    [tenantId, BULK],
  );
  await c.query('analyze scim_user');
  await c.end();
}

/** A tenant of BULK users, seeded once per run and shared by the list figures. */
let bulkTenant: Promise<ScenarioContext['tenants'][number]> | undefined;
const bulk = (ctx: ScenarioContext) => {
  bulkTenant ??= createBenchTenants(ctx.service, 1, `bulk-${ctx.pass}`).then(async ([t]) => {
    if (!t) throw new Error('no bulk tenant');
    await seed(ctx.service.databaseUrl, t.id);
    return t;
  });
  return bulkTenant;
};

const list = (name: string, operations: number, query: (i: number) => string): Scenario => ({
  name: `scim: GET /Users?${name} (${BULK} users)`,
  matches: 'issue',
  operations,
  singleTenant: true,
  prepare: async (ctx) => {
    const t = await bulk(ctx);
    return async (i) => expectStatus(await t.scim.get(`/Users?${query(i)}`), 200, 'list');
  },
});
/** Operation i's user, spread over the whole tenant. */
const spread = (i: number) => 1 + ((i * 7919) % BULK);
const filter = (f: string) => `filter=${encodeURIComponent(f)}&count=50`;

/**
 * SCIM figures: user creations (each issuing a credential, direct delivery), replaces that renew
 * (revoke + issue), deactivations that revoke, and lists on a tenant of 100,000 users.
 */
export const scimScenarios: Scenario[] = [
  {
    name: 'scim: POST /Users (credential issued and returned, direct delivery)',
    matches: 'issue',
    operations: 400,
    halfPeak: true,
    prepare: async (ctx) => (i) => createUser(ctx, i),
  },
  {
    name: 'scim: PUT /Users/{id} with a new name (old credential revoked, new one issued)',
    matches: 'issue',
    operations: 400,
    prepare: async (ctx, total) => {
      const ids = await usersOf(ctx, total);
      return async (i) =>
        expectStatus(
          await tenantOf(ctx, i).scim.put(`/Users/${ids[i]}`, user(`${ctx.pass}-u${i}`, 'Anna')),
          200,
          'replace',
        );
    },
  },
  {
    name: 'scim: PATCH /Groups adding a member (group without powers, member re-evaluated)',
    matches: 'issue',
    operations: 400,
    prepare: async (ctx, total) => {
      const ids = await usersOf(ctx, total);
      // Eight groups per tenant, one per concurrent request: changes to one group are serialised.
      const groups = await Promise.all(
        ctx.tenants.flatMap((t, n) =>
          Array.from({ length: 8 }, async (_, k) => {
            const res = await t.scim.post('/Groups', {
              schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
              displayName: `${ctx.pass}-t${n}-g${k}`,
            });
            expectStatus(res, 201, 'group');
            return res.body.id as string;
          }),
        ),
      );
      return async (i) => {
        const tenant = i % ctx.tenants.length;
        const group = groups[tenant * 8 + (Math.floor(i / ctx.tenants.length) % 8)];
        const body = patchOp({ op: 'add', path: 'members', value: [{ value: ids[i] }] });
        const res = await tenantOf(ctx, i).scim.patch(`/Groups/${group}`, body);
        if (res.status !== 204 && res.status !== 200) expectStatus(res, 204, 'group member');
      };
    },
  },
  {
    name: 'scim: PATCH active=false (credential revoked)',
    matches: 'issue',
    operations: 400,
    prepare: async (ctx, total) => {
      const ids = await usersOf(ctx, total);
      const body = patchOp({ op: 'replace', path: 'active', value: false });
      return async (i) =>
        expectStatus(await tenantOf(ctx, i).scim.patch(`/Users/${ids[i]}`, body), 204, 'deactivate');
    },
  },
  list('startIndex=…&count=50, no filter', 400, (i) => `startIndex=${1 + ((i * 50) % 5000)}&count=50`),
  list('filter=userName eq …', 400, (i) => filter(`userName eq "bulk${spread(i)}@bench.test"`)),
  list('filter=externalId eq …', 400, (i) => filter(`externalId eq "ext-${spread(i)}"`)),
  list('filter=name.familyName eq … and active eq true, 50 per page', 200, (i) =>
    filter(`name.familyName eq "Family${i % 1000}" and active eq true`),
  ),
];
