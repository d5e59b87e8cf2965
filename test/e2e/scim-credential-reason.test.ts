import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimClient } from '../support/scim-client.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * Provisioning without a usable credential configuration is visible where each caller looks: the
 * directory in the SCIM answer's credential extension (`reason`), the operator in the tenant's admin
 * view (`warnings`). Both clear once the tenant is set up.
 */
let t: TestService;
const CREDENTIAL = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';

beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.stop());

const user = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Ana', familyName: 'Ruiz' },
  emails: [{ value: userName, primary: true }],
});
const warningsOf = async (id: string) => {
  const res = await t.admin.getTenant({ params: { id } });
  if (res.status !== 200) throw new Error(`tenant ${res.status}`);
  return res.body.warnings;
};

describe('why a SCIM user has no credential', () => {
  it('a user created inactive: no credential, and the extension says the user is deactivated', async () => {
    const created = await t.admin.createTenant({ body: acmeTenant() });
    if (created.status !== 201) throw new Error('no tenant');
    const scim = scimClient(t.baseUrl, created.body.id, created.body.scim_token);
    const posted = await scim.post('/Users', { ...user('idle@acme.test'), active: false });
    expect(posted.status).toBe(201);
    expect(posted.body[CREDENTIAL]).toMatchObject({ status: 'none', reason: 'user deactivated' });
    expect((await scim.get(`/Users/${posted.body.id}`)).body[CREDENTIAL]).toMatchObject({
      status: 'none',
      reason: 'user deactivated',
    });
  });

  it('a tenant without a mandator: the user is stored, and both views say why', async () => {
    const { mandator: _none, ...bare } = { ...acmeTenant(), delivery: 'direct' as const };
    const created = await t.admin.createTenant({ body: bare });
    if (created.status !== 201) throw new Error('no tenant');
    const id = created.body.id;
    const scim = scimClient(t.baseUrl, id, created.body.scim_token);
    expect(await warningsOf(id)).toEqual([
      expect.stringMatching(/requires a mandator and the tenant has none/),
    ]);

    const ana = await scim.post('/Users', user('ana@acme.test'));
    expect(ana.status).toBe(201);
    expect(ana.body[CREDENTIAL]).toMatchObject({
      status: 'none',
      reason: expect.stringMatching(/the credential would be invalid: .*mandator/),
    });
    expect((await scim.get(`/Users/${ana.body.id}`)).body[CREDENTIAL].reason).toMatch(/mandator/);

    await t.admin.updateTenant({ params: { id }, body: { mandator: acmeTenant().mandator } });
    expect(await warningsOf(id)).toEqual([]);
    const put = await scim.put(`/Users/${ana.body.id}`, user('ana@acme.test'));
    expect(put.body[CREDENTIAL].status).toBe('valid');
    expect(put.body[CREDENTIAL].reason).toBeUndefined();
  });

  it('a tenant whose provisioning names no configuration', async () => {
    const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
    if (created.status !== 201) throw new Error('no tenant');
    const id = created.body.id;
    expect(await warningsOf(id)).toEqual([]);
    const settings = await t.admin.getProvisioning({ params: { id } });
    if (settings.status !== 200) throw new Error('no settings');
    await t.admin.putProvisioning({
      params: { id },
      body: { ...settings.body, credential_configuration_id: null },
    });
    expect(await warningsOf(id)).toEqual([expect.stringMatching(/no credential configuration is set/)]);
    const scim = scimClient(t.baseUrl, id, created.body.scim_token);
    const bo = await scim.post('/Users', user('bo@acme.test'));
    expect(bo.body[CREDENTIAL]).toMatchObject({
      status: 'none',
      reason: 'the tenant has no credential configuration for its users',
    });
  });
});
