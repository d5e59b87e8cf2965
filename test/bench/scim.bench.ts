import pg from 'pg';
import { patchOp, scimClient } from '../support/scim-client.js';
import { benchTenant, expectStatus, type Figure, measure, startBenchService } from './harness.js';

const BULK = 100_000;

const user = (i: number, givenName = 'Ana') => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: `user${i}@bench.test`,
  name: { givenName, familyName: `Family${i}` },
  emails: [{ primary: true, type: 'work', value: `user${i}@bench.test` }],
  active: true,
});

/** Seeds a tenant with BULK users straight in SQL: the filtered-list figures need volume, not provisioning. */
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

/**
 * SCIM figures: user creations (each issuing a credential, direct delivery), replaces that renew
 * (revoke + issue), deactivations that revoke, and filtered lists on a tenant of 100,000 users.
 */
export async function scimBench(): Promise<Figure[]> {
  const b = await startBenchService();
  try {
    const tenant = await b.admin.createTenant({ body: benchTenant('bench') });
    if (tenant.status !== 201) throw new Error('tenant not created');
    const scim = scimClient(b.baseUrl, 'bench', tenant.body.scim_token);
    const ids: string[] = [];
    const figures = [
      await measure(
        'scim: POST /Users (credential issued and returned, direct delivery)',
        400,
        8,
        async (i) => {
          const res = await scim.post('/Users', user(i));
          expectStatus(res, 201, 'create');
          ids[i] = res.body.id;
        },
      ),
      await measure(
        'scim: PUT /Users/{id} with a new name (old credential revoked, new one issued)',
        400,
        8,
        async (i) => expectStatus(await scim.put(`/Users/${ids[i]}`, user(i, 'Anna')), 200, 'replace'),
      ),
      await measure('scim: PATCH active=false (credential revoked)', 400, 8, async (i) =>
        expectStatus(
          await scim.patch(`/Users/${ids[i]}`, patchOp({ op: 'replace', path: 'active', value: false })),
          204,
          'deactivate',
        ),
      ),
    ];
    const bulk = await b.admin.createTenant({ body: { id: 'bulk', name: 'Bulk', delivery: 'direct' } });
    if (bulk.status !== 201) throw new Error('bulk tenant not created');
    await seed(b.databaseUrl, 'bulk');
    const big = scimClient(b.baseUrl, 'bulk', bulk.body.scim_token);
    const list = (filter: string) => async (i: number) =>
      expectStatus(
        await big.get(
          `/Users?filter=${encodeURIComponent(filter.replace('$i', String((i * 7919) % BULK)))}&count=50`,
        ),
        200,
        'list',
      );
    figures.push(
      await measure(
        `scim: GET /Users?filter=userName eq … (${BULK} users)`,
        1000,
        8,
        list('userName eq "bulk$i@bench.test"'),
      ),
      await measure(
        `scim: GET /Users?filter=externalId eq … (${BULK} users)`,
        1000,
        8,
        list('externalId eq "ext-$i"'),
      ),
      await measure(
        `scim: GET /Users?filter=name.familyName eq … and active eq true, 50 per page (${BULK} users)`,
        300,
        8,
        list('name.familyName eq "Family$i" and active eq true'),
      ),
      await measure(`scim: GET /Users?startIndex=…&count=50, no filter (${BULK} users)`, 300, 8, async (i) =>
        expectStatus(await big.get(`/Users?startIndex=${1 + ((i * 50) % 5000)}&count=50`), 200, 'page'),
      ),
    );
    return figures;
  } finally {
    await b.stop();
  }
}
