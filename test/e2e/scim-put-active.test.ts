import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchOp, scimClient } from '../support/scim-client.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * A PUT that leaves out `active` keeps the user's current state (RFC 7644 section 3.5.1 leaves the
 * choice to the provider): it never reactivates a deactivated user, nor issues them a credential.
 * Checked with the sequences Entra (PATCH to deactivate and reactivate) and Okta (PUT with
 * `active` every time) send, and with a client that omits `active` from its PUTs.
 */
let t: TestService;
let scim: ReturnType<typeof scimClient>;
const CREDENTIAL = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
  if (created.status !== 201) throw new Error('no tenant');
  scim = scimClient(t.baseUrl, created.body.id, created.body.scim_token);
});
afterAll(() => t.stop());

const user = (userName: string, more: Record<string, unknown> = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Ana', familyName: 'Ruiz' },
  emails: [{ value: userName, type: 'work', primary: true }],
  ...more,
});

describe('PUT without active', () => {
  it('Entra: PATCH deactivates, a PUT without active keeps the user inactive, PATCH reactivates', async () => {
    const created = await scim.post('/Users', user('entra@acme.test', { active: true }));
    const path = `/Users/${created.body.id}`;
    const off = await scim.patchThenGet(path, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect(off.body).toMatchObject({
      active: false,
      [CREDENTIAL]: { status: 'none', reason: 'user deactivated' },
    });
    const revokedIds = off.body[CREDENTIAL].credentialIds;

    const put = await scim.put(path, user('entra@acme.test', { title: 'Engineer' }));
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ active: false, title: 'Engineer' });
    expect(put.body[CREDENTIAL]).toMatchObject({ status: 'none', reason: 'user deactivated' });
    expect(put.body[CREDENTIAL].credential).toBeUndefined();
    expect((await scim.get(path)).body[CREDENTIAL].credentialIds).toEqual(revokedIds);

    const on = await scim.patchThenGet(path, patchOp({ op: 'Replace', path: 'active', value: 'True' }));
    expect(on.body.active).toBe(true);
    expect(on.body[CREDENTIAL].status).toBe('valid');
    expect(on.body[CREDENTIAL].reason).toBeUndefined();
  });

  it('Okta: PUT active:false deactivates, PUT active:true reactivates with a new credential', async () => {
    const created = await scim.post('/Users', user('okta@acme.test', { active: true }));
    const path = `/Users/${created.body.id}`;
    const off = await scim.put(path, user('okta@acme.test', { active: false }));
    expect(off.body).toMatchObject({ active: false, [CREDENTIAL]: { status: 'none' } });
    const still = await scim.put(path, user('okta@acme.test', { locale: 'es-ES' }));
    expect(still.body.active).toBe(false);
    const on = await scim.put(path, user('okta@acme.test', { active: true }));
    expect(on.body.active).toBe(true);
    expect(on.body[CREDENTIAL].credential).toMatch(/~/);
    expect(on.body[CREDENTIAL].credential).not.toBe(created.body[CREDENTIAL].credential);
  });

  it('keeps an active user active and their credential as it was', async () => {
    const created = await scim.post('/Users', user('kept@acme.test'));
    const put = await scim.put(`/Users/${created.body.id}`, user('kept@acme.test', { nickName: 'K' }));
    expect(put.body.active).toBe(true);
    expect(put.body[CREDENTIAL].credentialIds).toEqual(created.body[CREDENTIAL].credentialIds);
  });
});
