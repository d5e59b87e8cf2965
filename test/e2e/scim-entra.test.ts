import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchOp, scimClient } from '../support/scim-client.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * The sequence Microsoft Entra ID runs against a SCIM app, with the bodies it sends (with and without
 * its 2020 fixes), on a tenant with e-mail delivery: each step's credential, status list and audit effects.
 */
let t: TestService;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let scim: ReturnType<typeof scimClient>;
let sql: pg.Client;
let tenantId: string;
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const CREDENTIAL = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await startTestService({ env: { SMTP_URL: smtp.url } });
  const created = await t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error('no tenant');
  tenantId = created.body.id;
  scim = scimClient(t.baseUrl, tenantId, created.body.scim_token);
  sql = new pg.Client({ connectionString: t.db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql.end();
  await t.stop();
  await smtp.close();
});

const entraUser = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
  externalId: userName.split('@')[0],
  userName,
  active: true,
  displayName: 'Ana Ruiz',
  emails: [{ primary: true, type: 'work', value: userName }],
  name: { formatted: 'Ana Ruiz', familyName: 'Ruiz', givenName: 'Ana' },
  [ENTERPRISE]: { employeeNumber: '1001', department: 'R&D' },
});

const auditActions = async (subject: string) => {
  const page = await t.admin.listAuditEvents({ params: { id: tenantId }, query: { limit: 1000 } });
  return page.status === 200 ? page.body.items.filter((e) => e.subject === subject) : [];
};

const credentialRows = async (userId: string) =>
  (
    await sql.query(
      `select c.id, c.status from issued_credential c join issuance i on i.id = c.issuance_id
       where i.id in (select issuance_id from scim_user where id = $1) order by c.issued_at`,
      [userId],
    )
  ).rows;

describe('an Entra ID provisioning cycle', () => {
  let userId: string;
  let managerId: string;

  it('probes with a random userName filter and finds nothing', async () => {
    const probe = await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${randomUUID()}"`)}`);
    expect(probe.status).toBe(200);
    expect(probe.body).toMatchObject({ totalResults: 0, Resources: [] });
    expect(probe.headers.get('content-type')).toContain('application/scim+json');
  });

  it('matches before create, creates, and the user gets an offer by e-mail', async () => {
    const match = await scim.get(`/Users?filter=${encodeURIComponent('userName eq "ana.ruiz@acme.test"')}`);
    expect(match.body.totalResults).toBe(0);
    const created = await scim.post('/Users', entraUser('ana.ruiz@acme.test'));
    expect(created.status).toBe(201);
    userId = created.body.id;
    expect(created.headers.get('location')).toBe(`${scim.root}/Users/${userId}`);
    expect(created.body).toMatchObject({
      userName: 'ana.ruiz@acme.test',
      active: true,
      meta: { resourceType: 'User', version: 'W/"1"' },
    });
    expect(created.body[CREDENTIAL]).toMatchObject({ status: 'offered', issuanceId: expect.any(String) });
    await smtp.waitForMail((m) => m.to.includes('ana.ruiz@acme.test') && /activation code/.test(m.raw));
    const events = await auditActions(userId);
    expect(events.map((e) => e.action)).toEqual(['scim.user.created']);
    expect(events[0]?.actor).toMatch(/^scim:/);
    expect(events[0]?.details).toMatchObject({
      credential: 'issued',
      issuance: created.body[CREDENTIAL].issuanceId,
    });
    const found = await scim.get(`/Users?filter=${encodeURIComponent('userName eq "ANA.RUIZ@acme.test"')}`);
    expect(found.body.Resources.map((r: { id: string }) => r.id)).toEqual([userId]);
  });

  it('refuses a second user with the same userName, ignoring case', async () => {
    const dup = await scim.post('/Users', entraUser('Ana.Ruiz@ACME.test'));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    });
  });

  it('applies the PATCH bodies Entra sends after its 2020 fixes, renewing the credential when mapped data changes', async () => {
    const before = (await scim.get(`/Users/${userId}`)).body[CREDENTIAL].issuanceId;
    const res = await scim.patchThenGet(
      `/Users/${userId}`,
      patchOp(
        { op: 'replace', path: 'name.givenName', value: 'Anna' },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'ana.ruiz@acme.test' },
        { op: 'add', path: `${ENTERPRISE}:department`, value: 'Finance' },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.name.givenName).toBe('Anna');
    expect(res.body[ENTERPRISE].department).toBe('Finance');
    expect(res.body[CREDENTIAL].issuanceId).not.toBe(before);
    const withdrawn = await sql.query('select status from issuance where id = $1', [before]);
    expect(withdrawn.rows[0].status).toBe('withdrawn');
    expect((await auditActions(userId)).at(-1)).toMatchObject({
      action: 'scim.user.updated',
      details: { credential: 'renewed' },
    });
  });

  it('leaves the credential alone when nothing it carries changes (department is not mapped)', async () => {
    const before = (await scim.get(`/Users/${userId}`)).body[CREDENTIAL].issuanceId;
    const res = await scim.patchThenGet(
      `/Users/${userId}`,
      patchOp({ op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Legal' }),
    );
    expect(res.body[CREDENTIAL].issuanceId).toBe(before);
    expect((await auditActions(userId)).at(-1)).toMatchObject({ details: { credential: 'unchanged' } });
  });

  it('applies the bodies Entra sent before its fixes: path-less values, capitalised ops, a bare-string manager', async () => {
    const manager = await scim.post('/Users', entraUser('boss@acme.test'));
    managerId = manager.body.id;
    const res = await scim.patchThenGet(
      `/Users/${userId}`,
      patchOp(
        { op: 'Replace', value: { 'name.familyName': 'Ruiz Garcia', displayName: 'Anna Ruiz Garcia' } },
        { op: 'Add', path: `${ENTERPRISE}:manager`, value: managerId },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.name.familyName).toBe('Ruiz Garcia');
    expect(res.body[ENTERPRISE].manager).toMatchObject({ value: managerId });
  });

  it('adds and removes group members the way Entra does, and group powers reach the credential', async () => {
    await t.admin.updateTenant({ params: { id: tenantId }, body: {} });
    const group = await scim.post('/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Approvers',
      externalId: 'g1',
    });
    expect(group.status).toBe(201);
    const add = await scim.patchThenGet(
      `/Groups/${group.body.id}`,
      patchOp({ op: 'Add', path: 'members', value: [{ value: userId }] }),
    );
    expect(add.status).toBe(200);
    expect(add.body.members.map((m: { value: string }) => m.value)).toEqual([userId]);
    const user = await scim.get(`/Users/${userId}`);
    expect(user.body.groups.map((g: { value: string }) => g.value)).toEqual([group.body.id]);
    const filtered = await scim.get(`/Groups?filter=${encodeURIComponent(`members[value eq "${userId}"]`)}`);
    expect(filtered.body.totalResults).toBe(1);
    const remove = await scim.patchThenGet(
      `/Groups/${group.body.id}`,
      patchOp({ op: 'Remove', path: `members[value eq "${userId}"]` }),
    );
    expect(remove.body.members).toEqual([]);
    expect((await auditActions(group.body.id)).map((e) => e.action)).toEqual([
      'scim.group.created',
      'scim.group.updated',
      'scim.group.updated',
    ]);
  });

  it('deactivates with "False" (revoking) and reactivates (issuing anew)', async () => {
    const off = await scim.patchThenGet(
      `/Users/${userId}`,
      patchOp({ op: 'Replace', path: 'active', value: 'False' }),
    );
    expect(off.body.active).toBe(false);
    expect(off.body[CREDENTIAL].status).toBe('none');
    expect((await auditActions(userId)).at(-1)).toMatchObject({ action: 'scim.user.deactivated' });
    const on = await scim.patchThenGet(
      `/Users/${userId}`,
      patchOp({ op: 'replace', value: { active: 'True' } }),
    );
    expect(on.body.active).toBe(true);
    expect(on.body[CREDENTIAL].status).toBe('offered');
  });

  it('deletes: the user is gone and the deletion is audited', async () => {
    const del = await scim.delete(`/Users/${userId}`);
    expect(del.status).toBe(204);
    expect((await scim.get(`/Users/${userId}`)).status).toBe(404);
    expect((await auditActions(userId)).at(-1)).toMatchObject({ action: 'scim.user.deleted' });
    expect(await credentialRows(userId)).toEqual([]);
    await scim.delete(`/Users/${managerId}`);
  });
});
