import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redeemMdocOffer } from '../support/mdoc-wallet.js';
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

async function mdocTenant(delivery: 'email' | 'direct', beside = false) {
  const created = await f.t.admin.createTenant({ body: { ...acmeTenant(), delivery } });
  if (created.status !== 201) throw new Error(`tenant ${created.status}`);
  const { id } = created.body;
  const settings = await f.t.admin.getProvisioning({ params: { id } });
  if (settings.status !== 200) throw new Error('no settings');
  const put = await f.t.admin.putProvisioning({
    params: { id },
    body: beside
      ? { ...settings.body, additional_configuration_ids: ['EmployeeMdoc'] }
      : { ...settings.body, credential_configuration_id: 'EmployeeMdoc' },
  });
  expect(put.status).toBe(200);
  return { id, scim: scimClient(f.t.baseUrl, id, created.body.scim_token) };
}

/** The issuances of a SCIM user: the main one and those provisioned beside it. */
async function issuancesOf(userId: string) {
  const { rows } = await f.sql.query<{
    id: string;
    configuration_id: string;
    companion_of: string | null;
    status: string;
  }>(
    `select i.id, i.configuration_id, i.companion_of, i.status from issuance i, scim_user u
     where u.id = $1 and (i.id = u.issuance_id or i.companion_of = u.issuance_id) order by i.companion_of nulls first`,
    [userId],
  );
  return rows;
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

  it('offers the mdoc beside the SD-JWT VC, and revokes both when the user is deactivated', async () => {
    const { scim } = await mdocTenant('email', true);
    const email = 'ana.both@acme.test';
    const ana = await scim.post('/Users', user(email));
    expect(ana.status).toBe(201);
    const [main, companion] = await issuancesOf(ana.body.id);
    expect(main).toMatchObject({ configuration_id: 'LEARCredentialEmployee', companion_of: null });
    expect(companion).toMatchObject({ configuration_id: 'EmployeeMdoc', companion_of: main?.id });

    // Each offer has its own mail and tx_code: the third-party mdoc wallet redeems the mdoc's.
    const offerUri = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${f.t.baseUrl}/oid4vci/v1/credential-offer/${companion?.id}`)}`;
    const codeMails = () =>
      f.smtp.messages.filter((m) => m.to.includes(email) && /activation code is/.test(m.raw));
    for (let i = 0; codeMails().length < 2 && i < 150; i++) await new Promise((r) => setTimeout(r, 200));
    const codes = codeMails().map((m) => /activation code is: (\d{6})/.exec(m.raw)?.[1] ?? '');
    expect(codes).toHaveLength(2);
    let received = false;
    for (const code of codes)
      received ||= await redeemMdocOffer(f.t.baseUrl, offerUri, code).then(
        () => true,
        () => false,
      );
    expect(received).toBe(true);
    const { rows: issued } = await f.sql.query(
      'select status from issued_credential where issuance_id = $1',
      [companion?.id],
    );
    expect(issued).toEqual([{ status: 'valid' }]);

    const off = await scim.put(`/Users/${ana.body.id}`, user(email, false));
    expect(off.body[CREDENTIAL]).toMatchObject({ status: 'none', reason: 'user deactivated' });
    const { rows: after } = await f.sql.query(
      'select i.status, c.status as credential from issuance i left join issued_credential c on c.issuance_id = i.id where i.id = any($1)',
      [[main?.id, companion?.id]],
    );
    // The SD-JWT VC's offer was never redeemed: withdrawn; the mdoc was issued: revoked.
    expect(after).toEqual(
      expect.arrayContaining([
        { status: 'withdrawn', credential: null },
        { status: 'issued', credential: 'revoked' },
      ]),
    );
  });

  it('refuses settings whose credentials beside the main one cannot be issued', async () => {
    const { id } = await mdocTenant('email');
    const settings = await f.t.admin.getProvisioning({ params: { id } });
    if (settings.status !== 200) throw new Error('no settings');
    const put = (body: Partial<typeof settings.body>) =>
      f.t.admin.putProvisioning({ params: { id }, body: { ...settings.body, ...body } });
    const refused = [
      await put({ additional_configuration_ids: ['NoSuchConfiguration'] }),
      await put({ additional_configuration_ids: ['EmployeeMdoc'] }),
      await put({
        credential_configuration_id: null,
        additional_configuration_ids: ['LEARCredentialEmployee'],
      }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(JSON.stringify(refused.map((r) => r.body))).toMatch(
      /unknown credential configuration.*already issued.*needs a credential_configuration_id/,
    );
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
