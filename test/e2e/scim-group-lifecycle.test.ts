import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedStatus } from '../support/credential-status.js';
import { patchOp, scimClient } from '../support/scim-client.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';

/**
 * Groups as Entra and Okta drive them, on a tenant with direct delivery: one group per name, a
 * membership change that one member's data cannot follow still applies to the others, and a
 * credential a group change renews can be fetched.
 */
let t: TestService;
let scim: ReturnType<typeof scimClient>;
let tenantId: string;
const CREDENTIAL = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';
const powersIn = (credential: string) =>
  credential
    .split('~')
    .slice(1)
    .filter(Boolean)
    .map((d) => Buffer.from(d, 'base64url').toString())
    .filter((d) => d.includes('"function"'))
    .join(' ');

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
  if (created.status !== 201) throw new Error('no tenant');
  tenantId = created.body.id;
  scim = scimClient(t.baseUrl, tenantId, created.body.scim_token);
});
afterAll(() => t.stop());

const provisioning = (emailSource: string) =>
  t.admin.putProvisioning({
    params: { id: tenantId },
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      mappings: [
        { target: 'mandatee.firstName', source: 'name.givenName', required: true },
        { target: 'mandatee.lastName', source: 'name.familyName', required: true },
        { target: 'mandatee.email', source: emailSource, required: true },
      ],
      default_powers: [{ function: 'Employee', action: ['Identify'] }],
      group_powers: { approvers: [{ function: 'Purchasing', action: ['Approve'] }] },
      renew_on_every_put: false,
    },
  });
const user = (userName: string, emailType: string) => ({
  userName,
  displayName: userName.split('@')[0],
  name: { givenName: 'Ana', familyName: 'Ruiz' },
  emails: [{ value: userName, type: emailType, primary: true }],
});
const group = (displayName: string, members: string[] = []) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  displayName,
  members: members.map((value) => ({ value })),
});

describe('group names are unique per tenant, ignoring case', () => {
  it('refuses a second group of the same name on create, PUT and PATCH, changing nothing', async () => {
    const approvers = await scim.post('/Groups', group('Approvers'));
    expect(approvers.status).toBe(201);
    const dup = await scim.post('/Groups', group('APPROVERS'));
    expect(dup).toMatchObject({ status: 409, body: { status: '409', scimType: 'uniqueness' } });
    const other = await scim.post('/Groups', group('Auditors'));
    const path = `/Groups/${other.body.id}`;
    const renames = [
      await scim.patch(path, patchOp({ op: 'replace', path: 'displayName', value: 'approvers' })),
      await scim.put(path, group('Approvers')),
    ];
    for (const r of renames) expect(r).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
    expect((await scim.get(path)).body).toMatchObject({
      displayName: 'Auditors',
      meta: { version: 'W/"1"' },
    });
    // A group may change the case of its own name; Entra's match by name then finds exactly one.
    const recased = await scim.patch(
      `/Groups/${approvers.body.id}`,
      patchOp({ op: 'replace', path: 'displayName', value: 'APPROVERS' }),
    );
    expect(recased.status).toBe(204);
    const matched = await scim.get(`/Groups?filter=${encodeURIComponent('displayName eq "approvers"')}`);
    expect(matched.body.Resources.map((g: { id: string }) => g.id)).toEqual([approvers.body.id]);
    for (const id of [approvers.body.id, other.body.id]) await scim.delete(`/Groups/${id}`);
  });
});

describe('a group change one member cannot follow', () => {
  let ana: string;
  let bo: string;
  let anaFirst: string;
  let boFirst: string;

  it('provisions two users while the e-mail mapping takes the primary one', async () => {
    await provisioning('emails[primary eq true].value');
    const a = await scim.post('/Users', user('ana@acme.test', 'work'));
    const b = await scim.post('/Users', user('bo@acme.test', 'home'));
    [ana, bo] = [a.body.id, b.body.id];
    [anaFirst, boFirst] = [a.body[CREDENTIAL].credential, b.body[CREDENTIAL].credential];
    expect(anaFirst).toMatch(/~/);
    expect(boFirst).toMatch(/~/);
    // The operator now requires a work address, which Bo lacks; nothing is re-evaluated yet.
    await provisioning('emails[type eq "work"].value');
  });

  it('a group without powers: Bo joins, keeps his credential, and his extension says why it was not renewed', async () => {
    const staff = await scim.post('/Groups', group('Staff', [ana, bo]));
    expect(staff.status).toBe(201);
    expect(staff.body.members.map((m: { value: string }) => m.value).sort()).toEqual([ana, bo].sort());
    const boNow = (await scim.get(`/Users/${bo}`)).body[CREDENTIAL];
    expect(boNow).toMatchObject({
      status: 'valid',
      reason: expect.stringMatching(/emails\[type eq "work"\]/),
    });
    expect(await publishedStatus(t.baseUrl, t.service.context.signer, boFirst, 0)).toBe(0);
  });

  it('a group with powers: applies to Ana (renewed), and revokes Bo’s credential rather than leave it wrong', async () => {
    const approvers = await scim.post('/Groups', group('Approvers'));
    const patched = await scim.patch(
      `/Groups/${approvers.body.id}`,
      patchOp({ op: 'add', path: 'members', value: [{ value: ana }, { value: bo }] }),
    );
    expect(patched.status).toBe(204);
    const members = (await scim.get(`/Groups/${approvers.body.id}`)).body.members;
    expect(members.map((m: { value: string }) => m.value).sort()).toEqual([ana, bo].sort());
    expect(members.every((m: { display?: string }) => typeof m.display === 'string')).toBe(true);

    expect(await publishedStatus(t.baseUrl, t.service.context.signer, anaFirst, 1)).toBe(1);
    expect(await publishedStatus(t.baseUrl, t.service.context.signer, boFirst, 1)).toBe(1);
    const boNow = (await scim.get(`/Users/${bo}`)).body[CREDENTIAL];
    expect(boNow.status).toBe('none');
    expect(boNow.reason).toMatch(
      /required attribute\(s\) missing: emails\[type eq "work"\]\.value; .*revoked/,
    );
    const events = await until(
      async () => {
        const page = await t.admin.listAuditEvents({
          params: { id: tenantId },
          query: { action: 'scim.user.credential_not_renewed' },
        });
        return page.status === 200 ? page.body.items : [];
      },
      (items) => items.length >= 2,
    );
    expect(events.map((e) => e.subject)).toEqual([bo, bo]);
    expect(events.at(-1)?.details).toMatchObject({ group: approvers.body.id, revoked: expect.any(Array) });
  });

  it('hands out the credential the group change renewed: on request, by name, on a GET', async () => {
    const plain = await scim.get(`/Users/${ana}`);
    expect(plain.body[CREDENTIAL].credential).toBeUndefined();
    expect(plain.body[CREDENTIAL].status).toBe('valid');
    const asked = await scim.get(`/Users/${ana}?attributes=${CREDENTIAL}:credential`);
    const renewed = asked.body[CREDENTIAL].credential;
    expect(renewed).toMatch(/~/);
    expect(renewed).not.toBe(anaFirst);
    expect(powersIn(renewed)).toContain('Purchasing');
    expect(await publishedStatus(t.baseUrl, t.service.context.signer, renewed, 0)).toBe(0);
    const listed = await scim.get(`/Users?attributes=${encodeURIComponent(`${CREDENTIAL}:credential`)}`);
    const bo = listed.body.Resources.find((r: { id: string }) => r.id !== ana);
    expect(bo[CREDENTIAL].credential).toBeUndefined();
  });

  it('returns and filters members.display as given, else the user’s displayName', async () => {
    const g = await scim.post('/Groups', {
      displayName: 'Named',
      members: [{ value: ana, display: 'Ana R.' }, { value: bo }],
    });
    const displays = g.body.members.map((m: { display: string }) => m.display).sort();
    expect(displays).toEqual(['Ana R.', 'bo']);
    const byDisplay = await scim.get(`/Groups?filter=${encodeURIComponent('members.display eq "ana r."')}`);
    expect(byDisplay.body.Resources.map((r: { id: string }) => r.id)).toEqual([g.body.id]);
  });
});
