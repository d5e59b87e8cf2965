import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedStatus } from '../support/credential-status.js';
import { approverProvisioning } from '../support/fixtures.js';
import { patchOp, scimClient } from '../support/scim-client.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * The sequence Okta runs, on a tenant with direct delivery: the signed credential comes back in the
 * SCIM response, and renewals and deactivations flip its bit in the published status list.
 */
let t: TestService;
let okta: ReturnType<typeof scimClient>;
let tenantId: string;
const CREDENTIAL = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
  if (created.status !== 201) throw new Error('no tenant');
  tenantId = created.body.id;
  okta = scimClient(t.baseUrl, tenantId, created.body.scim_token, 'application/json');
  await t.admin.putProvisioning({
    params: { id: tenantId },
    body: approverProvisioning(),
  });
});
afterAll(() => t.stop());

const oktaUser = (userName: string, givenName = 'Bo') => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName, familyName: 'Lee' },
  emails: [{ primary: true, value: userName, type: 'work' }],
  displayName: `${givenName} Lee`,
  locale: 'en-US',
  externalId: '00u1',
  groups: [],
  password: 'ignored-by-design',
  active: true,
});

const claimsOf = (credential: string) => {
  const [jwt, ...disclosures] = credential.split('~').filter(Boolean);
  const payload = JSON.parse(Buffer.from(jwt?.split('.')[1] ?? '', 'base64url').toString());
  const disclosed = disclosures.map((d) => JSON.parse(Buffer.from(d, 'base64url').toString()));
  return { payload, disclosed };
};

describe('an Okta provisioning cycle', () => {
  let id: string;
  let first: string;

  it('filters with startIndex and count, then creates with application/json and gets the credential back', async () => {
    const list = await okta.get(
      `/Users?filter=${encodeURIComponent('userName eq "bo.lee@acme.test"')}&startIndex=1&count=100`,
    );
    expect(list.body).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0 });
    const created = await okta.post('/Users', oktaUser('bo.lee@acme.test'));
    expect(created.status).toBe(201);
    id = created.body.id;
    expect(created.body.password).toBeUndefined();
    first = created.body[CREDENTIAL].credential;
    expect(first).toMatch(/^ey.+~/);
    const { payload, disclosed } = claimsOf(first);
    expect(payload.mandator.organization).toBe('ACME Corp');
    expect(disclosed.map((d) => d.at(-2))).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'email']),
    );
    await publishedStatus(t.baseUrl, t.service.context.signer, first, 0);
  });

  it('answers a duplicate with 409 uniqueness', async () => {
    const dup = await okta.post('/Users', oktaUser('bo.lee@acme.test'));
    expect(dup.status).toBe(409);
    expect(dup.body.scimType).toBe('uniqueness');
  });

  it('PUT with a profile change revokes the old credential (bit set) and issues a new one', async () => {
    const put = await okta.put(`/Users/${id}`, { ...oktaUser('bo.lee@acme.test', 'Bob'), id });
    expect(put.status).toBe(200);
    const second = put.body[CREDENTIAL].credential;
    expect(second).toBeTruthy();
    expect(claimsOf(second).disclosed.some((d) => d.includes('Bob'))).toBe(true);
    expect(await publishedStatus(t.baseUrl, t.service.context.signer, first, 1)).toBe(1);
    expect(await publishedStatus(t.baseUrl, t.service.context.signer, second, 0)).toBe(0);
    first = second;
  });

  it('PUT without changes to the credential leaves it valid', async () => {
    const put = await okta.put(`/Users/${id}`, { ...oktaUser('bo.lee@acme.test', 'Bob'), locale: 'es-ES' });
    expect(put.body[CREDENTIAL].credential).toBeUndefined();
    expect(put.body[CREDENTIAL].status).toBe('valid');
  });

  it('membership of a group with powers renews the credential with those powers', async () => {
    const group = await okta.post('/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Approvers',
      members: [{ value: id }],
    });
    expect(group.status).toBe(201);
    expect(await publishedStatus(t.baseUrl, t.service.context.signer, first, 1)).toBe(1);
    const user = await okta.get(`/Users/${id}`);
    expect(user.body[CREDENTIAL].status).toBe('valid');
  });

  it('PATCH active:false revokes; the status list shows it', async () => {
    const user = await okta.get(`/Users/${id}`);
    const before = user.body[CREDENTIAL].credentialIds;
    const res = await okta.patchThenGet(`/Users/${id}`, patchOp({ op: 'replace', value: { active: false } }));
    expect(res.body.active).toBe(false);
    expect(res.body[CREDENTIAL].status).toBe('none');
    const events = await t.admin.listAuditEvents({
      params: { id: tenantId },
      query: { action: 'scim.user.deactivated' },
    });
    expect(events.status === 200 && events.body.items.at(-1)?.details).toMatchObject({
      credential: 'revoked',
      revoked: before,
    });
  });

  it('refuses a user lacking a required mapped attribute, storing nothing', async () => {
    const { name: _name, ...nameless } = oktaUser('no.name@acme.test');
    const res = await okta.post('/Users', nameless);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      scimType: 'invalidValue',
      detail: expect.stringContaining('name.givenName'),
    });
    const found = await okta.get(`/Users?filter=${encodeURIComponent('userName eq "no.name@acme.test"')}`);
    expect(found.body.totalResults).toBe(0);
  });

  it('stores users without a credential when the tenant has no credential configuration, and says why', async () => {
    const settings = await t.admin.getProvisioning({ params: { id: tenantId } });
    if (settings.status !== 200) throw new Error('no settings');
    await t.admin.putProvisioning({
      params: { id: tenantId },
      body: { ...settings.body, credential_configuration_id: null },
    });
    const res = await okta.post('/Users', oktaUser('plain@acme.test'));
    expect(res.status).toBe(201);
    expect(res.body[CREDENTIAL].status).toBe('none');
    const events = await t.admin.listAuditEvents({
      params: { id: tenantId },
      query: { action: 'scim.user.created' },
    });
    expect(events.status === 200 && events.body.items.at(-1)?.details).toMatchObject({
      credential: 'none',
      reason: expect.stringMatching(/no credential configuration/),
    });
  });
});

describe('tenant isolation', () => {
  it('keeps tenant B’s users out of tenant A’s reads, filters and writes', async () => {
    const a = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
    const b = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
    if (a.status !== 201 || b.status !== 201) throw new Error('no tenants');
    const scimA = scimClient(t.baseUrl, a.body.id, a.body.scim_token);
    const scimB = scimClient(t.baseUrl, b.body.id, b.body.scim_token);
    const secret = await scimB.post('/Users', oktaUser('only.in.b@acme.test'));
    expect(secret.status).toBe(201);
    expect((await scimA.get(`/Users/${secret.body.id}`)).status).toBe(404);
    expect((await scimA.get('/Users')).body.totalResults).toBe(0);
    expect(
      (await scimA.get(`/Users?filter=${encodeURIComponent('userName eq "only.in.b@acme.test"')}`)).body
        .totalResults,
    ).toBe(0);
    expect(
      (await scimA.patch(`/Users/${secret.body.id}`, patchOp({ op: 'replace', value: { active: false } })))
        .status,
    ).toBe(404);
    expect((await scimA.delete(`/Users/${secret.body.id}`)).status).toBe(404);
    const crossToken = scimClient(t.baseUrl, b.body.id, a.body.scim_token);
    expect((await crossToken.get('/Users')).status).toBe(401);
    expect((await scimB.get(`/Users/${secret.body.id}`)).body.active).toBe(true);
  });
});
