import path from 'node:path';
import newman, { type NewmanRunSummary } from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScimTokenProxy } from '../support/scim-token-proxy.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/** Microsoft's public SCIM test collection (MIT, kept in the repository), run with newman. */
const COLLECTION = path.resolve(import.meta.dirname, '../fixtures/scim/PostmanCollection.json');

let t: TestService;
let proxy: Awaited<ReturnType<typeof startScimTokenProxy>>;

beforeAll(async () => {
  t = await startTestService();
  const tenant = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
  if (tenant.status !== 201) throw new Error('no tenant');
  // The collection's users carry no mandatee data of ours: credentials are issued where the data
  // allows and the users are stored regardless, which is what this run is about.
  await t.admin.putProvisioning({
    params: { id: tenant.body.id },
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      mappings: [
        { target: 'mandatee.firstName', source: 'name.givenName', required: false },
        { target: 'mandatee.lastName', source: 'name.familyName', required: false },
        { target: 'mandatee.email', source: 'emails[primary eq true].value', required: false },
      ],
      default_powers: [{ function: 'Employee', action: ['Identify'] }],
      group_powers: {},
      renew_on_every_put: false,
    },
  });
  proxy = await startScimTokenProxy(t.baseUrl, tenant.body.id, tenant.body.scim_token);
});
afterAll(async () => {
  await proxy.close();
  await t.stop();
});

function run(): Promise<NewmanRunSummary> {
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection: COLLECTION,
        reporters: [],
        envVar: [
          { key: 'Protocol', value: 'http' },
          { key: 'Server', value: '127.0.0.1' },
          { key: 'Port', value: `:${proxy.port}` },
          { key: 'Api', value: 'scim' },
        ],
      },
      (err, summary) => (err ? reject(err) : resolve(summary)),
    );
  });
}

describe("Microsoft's SCIM test collection", () => {
  it('passes every request and assertion of every folder', async () => {
    const summary = await run();
    const failures = summary.run.failures.map(
      (f) => `${f.source?.name ?? '?'}: ${f.error?.test ?? ''} ${f.error?.message ?? ''}`,
    );
    expect(failures).toEqual([]);
    expect(summary.run.stats.assertions.total).toBeGreaterThan(50);
    expect(summary.run.stats.requests.failed).toBe(0);
  }, 120_000);
});
