import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimClient } from '../support/scim-client.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant } from '../support/test-service.js';

/**
 * A tenant whose SCIM users get the employee credential as an ISO mdoc (EmployeeMdoc): the
 * provisioning rules build the same employee data, which the mdoc format puts in its namespace; the
 * offer goes out by mail, a deactivation revokes. Direct delivery, which has no holder key, says why
 * it cannot issue an mdoc instead of failing.
 */
const CREDENTIAL = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';
const NS = 'eu.credservice.employee.1';
let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(() => f.stop());

const user = (userName: string, active = true) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  active,
  name: { givenName: 'Ana', familyName: 'Ruiz' },
  emails: [{ value: userName, primary: true }],
});

async function mdocTenant(delivery: 'email' | 'direct') {
  const created = await f.t.admin.createTenant({ body: { ...acmeTenant(), delivery } });
  if (created.status !== 201) throw new Error(`tenant ${created.status}`);
  const { id } = created.body;
  const settings = await f.t.admin.getProvisioning({ params: { id } });
  if (settings.status !== 200) throw new Error('no settings');
  const put = await f.t.admin.putProvisioning({
    params: { id },
    body: { ...settings.body, credential_configuration_id: 'EmployeeMdoc' },
  });
  expect(put.status).toBe(200);
  return { id, scim: scimClient(f.t.baseUrl, id, created.body.scim_token) };
}

describe('SCIM provisioning of the employee mdoc', () => {
  it('offers the mdoc with the employee data in its namespace, and withdraws the offer on deactivation', async () => {
    const { scim } = await mdocTenant('email');
    const ana = await scim.post('/Users', user('ana.mdoc@acme.test'));
    expect(ana.status).toBe(201);
    expect(ana.body[CREDENTIAL]).toMatchObject({ status: 'offered' });
    const { rows } = await f.sql.query(
      `select i.id, i.configuration_id, i.payload from issuance i join scim_user u on u.issuance_id = i.id where u.id = $1`,
      [ana.body.id],
    );
    expect(rows[0]?.configuration_id).toBe('EmployeeMdoc');
    expect(rows[0]?.payload).toMatchObject({
      [NS]: { mandator: acmeTenant().mandator, mandatee: { email: 'ana.mdoc@acme.test' } },
    });
    // Email delivery: the offer link and, in a mail of its own, the tx_code.
    const offer = await f.smtp.waitForMail(
      (m) => m.to.includes('ana.mdoc@acme.test') && /credential_offer_uri|offer/i.test(m.raw),
      30_000,
    );
    expect(offer.raw).toBeTruthy();
    await f.smtp.waitForMail(
      (m) => m.to.includes('ana.mdoc@acme.test') && /activation code is/.test(m.raw),
      30_000,
    );

    const off = await scim.put(`/Users/${ana.body.id}`, user('ana.mdoc@acme.test', false));
    expect(off.status).toBe(200);
    expect(off.body[CREDENTIAL]).toMatchObject({ status: 'none', reason: 'user deactivated' });
    // The offer is withdrawn: its issuance is no longer open for a wallet to redeem.
    const { rows: after } = await f.sql.query('select status from issuance where id = $1', [rows[0]?.id]);
    expect(after[0]?.status).toBe('withdrawn');
  });

  it('says why direct delivery cannot issue it', async () => {
    const { scim } = await mdocTenant('direct');
    const bo = await scim.post('/Users', user('bo.mdoc@acme.test'));
    expect(bo.status).toBe(201);
    expect(bo.body[CREDENTIAL]).toMatchObject({
      status: 'none',
      reason: expect.stringMatching(/EmployeeMdoc is always bound to the holder's key/),
    });
  });
});
