import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchScimGroup } from '../../server/directory/scim-group-service.js';
import { approverProvisioning } from '../support/fixtures.js';
import { patchOp, scimClient } from '../support/scim-client.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * PUT, PATCH and DELETE of a SCIM user, and group changes that renew their members, are each written
 * by one gated statement (directory/change-user.ts, change-group.ts), not an ORM transaction; and the
 * gate holds when changes race: every renewal revokes exactly the credential it replaced, and each
 * user ends with exactly one.
 */
let t: TestService;
let scim: ReturnType<typeof scimClient>;
let tenantId: string;
let sql: pg.Client;

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
  if (created.status !== 201) throw new Error('no tenant');
  tenantId = created.body.id;
  scim = scimClient(t.baseUrl, created.body.id, created.body.scim_token);
  sql = new pg.Client({ connectionString: t.db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await t?.stop();
  proto.query = original;
});

const user = (userName: string, givenName = 'Ana') => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName, familyName: 'Ruiz' },
  emails: [{ value: userName, type: 'work', primary: true }],
});

/**
 * The SQL texts this process sends while `run` runs (the service runs in this process). Installed
 * before the service starts: its pool binds each connection's `query` when it connects.
 */
let recording: string[] | undefined;
type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const proto = pg.Client.prototype as unknown as { query: Query };
const original = proto.query;
proto.query = function (this: pg.Client, ...args) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  if (recording && typeof text === 'string') recording.push(text);
  return original.apply(this, args);
};

async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  recording = texts;
  try {
    await run();
  } finally {
    recording = undefined;
  }
  return texts;
}

/** A tenant with direct delivery whose group `approvers` grants a power. */
async function directTenant() {
  const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
  if (created.status !== 201) throw new Error('no tenant');
  const id = created.body.id;
  await t.admin.putProvisioning({
    params: { id },
    body: approverProvisioning(),
  });
  return { id, scim: scimClient(t.baseUrl, id, created.body.scim_token) };
}
const group = (displayName: string, members: string[] = []) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
  displayName,
  members: members.map((value) => ({ value })),
});
const validCredentials = async (tenant: string) =>
  (
    await sql.query(
      `select u.id as user_id, count(c.id)::int as valid, bool_and(c.issuance_id = u.issuance_id) as current
       from scim_user u left join issued_credential c on c.tenant_id = u.tenant_id and c.status = 'valid'
         and c.issuance_id in (select id from issuance where id = u.issuance_id)
       where u.tenant_id = $1 group by u.id`,
      [tenant],
    )
  ).rows;

const writesUser = (texts: string[], verb: 'update' | 'delete') =>
  texts.filter((s) => new RegExp(`${verb} (from )?scim_user`).test(s));
const lockedByGroupOrm = (texts: string[]) => texts.filter((s) => /from "scim_group".*for update/s.test(s));
const lockedByOrm = (texts: string[]) => texts.filter((s) => /from "scim_user".*for update/s.test(s));

describe('a change to a SCIM user', () => {
  it('renews, revokes and deletes with one statement each, and the credential states follow', async () => {
    const created = await scim.post('/Users', user('one@acme.test'));
    const path = `/Users/${created.body.id}`;

    let put: Awaited<ReturnType<typeof scim.put>> | undefined;
    const renewal = await statementsOf(async () => {
      put = await scim.put(path, user('one@acme.test', 'Anna'));
    });
    expect(put?.status).toBe(200);
    expect(lockedByOrm(renewal)).toEqual([]);
    const [renewing] = writesUser(renewal, 'update');
    expect(writesUser(renewal, 'update')).toHaveLength(1);
    expect(renewing).toContain("update issued_credential set status = 'revoked'");
    expect(renewing).toContain('insert into issuance');
    expect(renewing).toContain('insert into issued_credential');
    expect(renewing).toContain('insert into audit_pending');

    const deactivation = await statementsOf(() =>
      scim.patch(path, patchOp({ op: 'replace', path: 'active', value: false })),
    );
    expect(lockedByOrm(deactivation)).toEqual([]);
    expect(writesUser(deactivation, 'update')).toHaveLength(1);
    expect(writesUser(deactivation, 'update')[0]).toContain('insert into status_list_change');

    const deletion = await statementsOf(() => scim.delete(path));
    expect(lockedByOrm(deletion)).toEqual([]);
    expect(writesUser(deletion, 'delete')).toHaveLength(1);

    const { rows } = await sql.query(
      `select c.status, count(*)::int as n from issued_credential c where c.tenant_id = $1 group by c.status`,
      [tenantId],
    );
    expect(rows).toEqual([{ status: 'revoked', n: 2 }]);
    expect((await scim.get(path)).status).toBe(404);
  });

  it('leaves exactly one live credential when renewals race, each revocation recorded once', async () => {
    const other = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
    if (other.status !== 201) throw new Error('no tenant');
    tenantId = other.body.id;
    scim = scimClient(t.baseUrl, other.body.id, other.body.scim_token);
    const created = await scim.post('/Users', user('race@acme.test'));
    const path = `/Users/${created.body.id}`;
    const names = ['Anna', 'Annie', 'Ann', 'Anita', 'Anja', 'Anouk'];
    const answers = await Promise.all(names.map((n) => scim.put(path, user('race@acme.test', n))));
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));

    const { rows: credentials } = await sql.query(
      `select c.id, c.status, c.issuance_id = u.issuance_id as current
       from issued_credential c, scim_user u where c.tenant_id = $1 and u.id = $2`,
      [tenantId, created.body.id],
    );
    const live = credentials.filter((c) => c.status === 'valid');
    expect(credentials).toHaveLength(names.length + 1);
    expect(live).toHaveLength(1);
    expect(live[0]?.current).toBe(true);
    const { rows: events } = await sql.query(
      `select subject from (select subject, action from audit_pending where tenant_id = $1
         union all select subject, action from audit_event where tenant_id = $1) e
       where action = 'credential.revoked'`,
      [tenantId],
    );
    const revoked = credentials.filter((c) => c.status === 'revoked').map((c) => c.id);
    const recorded = events.map((e) => e.subject).filter((id) => revoked.includes(id));
    expect(recorded.sort()).toEqual(revoked.sort());
    expect(revoked).toHaveLength(names.length);
  });

  it('renews the members a group change gives powers with one statement, also when group changes race', async () => {
    const { id, scim: client } = await directTenant();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c', 'd'])
      ids.push((await client.post('/Users', user(`${name}@acme.test`))).body.id);
    let created: Awaited<ReturnType<typeof client.post>> | undefined;
    const creation = await statementsOf(async () => {
      created = await client.post('/Groups', group('approvers', [ids[0] as string]));
    });
    expect(created?.status).toBe(201);
    const [writing] = creation.filter((s) => /insert into scim_group /.test(s));
    expect(creation.filter((s) => /insert into scim_group /.test(s))).toHaveLength(1);
    expect(writing).toContain('insert into scim_group_member');
    expect(writing).toContain("update issued_credential set status = 'revoked'");
    expect(writing).toContain('update scim_user set');
    expect(creation.filter((s) => /from "scim_group".*for update/s.test(s))).toEqual([]);

    // Three replacements racing, each naming another second member: one of them wins whole.
    const path = `/Groups/${created?.body.id}`;
    const sets = ids.slice(1).map((other) => [ids[0] as string, other].sort());
    const answers = await Promise.all(sets.map((set) => client.put(path, group('approvers', set))));
    expect(answers.map((a) => a.status)).toEqual(sets.map(() => 200));
    const members = (await client.get(path)).body.members.map((m: { value: string }) => m.value).sort();
    expect(sets).toContainEqual(members);
    const held = await validCredentials(id);
    expect(held.map((h) => [h.valid, h.current])).toEqual(ids.map(() => [1, true]));
    const { rows } = await sql.query(
      `select count(*)::int as n from issued_credential where tenant_id = $1 and status = 'revoked'`,
      [id],
    );
    // a renewed once when the group gave it powers; each other user once per time their powers changed.
    expect(rows[0].n).toBeGreaterThanOrEqual(3);
  });

  it('takes the transactional way with the same rules: a member whose credential cannot be rebuilt loses powers the group took', async () => {
    const { id, scim: client } = await directTenant();
    const ana = (await client.post('/Users', user('ana@acme.test'))).body.id;
    const bo = (
      await client.post('/Users', { ...user('bo@acme.test'), emails: [{ value: 'bo@x.test', type: 'home' }] })
    ).body.id;
    const approvers = (await client.post('/Groups', group('approvers'))).body.id;
    // Now a work address is required, which Bo lacks.
    const settings = approverProvisioning();
    const mappings = settings.mappings.map((m) =>
      m.target === 'mandatee.email' ? { ...m, source: 'emails[type eq "work"].value' } : m,
    );
    await t.admin.putProvisioning({ params: { id }, body: { ...settings, mappings } });
    // A call without the pool's one-statement client is what a lost race or a group over 100 members gets.
    const { orm, issuance } = t.service.context;
    const add = patchOp({ op: 'add', path: 'members', value: [{ value: ana }, { value: bo }] });
    const statements = await statementsOf(() =>
      patchScimGroup({ em: orm.em.fork(), services: issuance, tenantId: id, actor: 'test' }, approvers, add),
    );
    expect(lockedByGroupOrm(statements)).not.toEqual([]);
    const { rows } = await sql.query(
      `select u.user_name, u.credential_reason, (select count(*)::int from issued_credential c
         where c.tenant_id = u.tenant_id and c.status = 'valid' and c.issuance_id = u.issuance_id) as valid
       from scim_user u where u.tenant_id = $1 order by u.user_name`,
      [id],
    );
    expect(rows.map((r) => [r.user_name, r.valid])).toEqual([
      ['ana@acme.test', 1],
      ['bo@acme.test', 0],
    ]);
    expect(rows[1].credential_reason).toMatch(
      /the credential was revoked, as the group change altered its powers/,
    );
    const { rows: events } = await sql.query(
      `select subject from audit_pending where tenant_id = $1 and action = 'scim.user.credential_not_renewed'
       union all select subject from audit_event where tenant_id = $1 and action = 'scim.user.credential_not_renewed'`,
      [id],
    );
    expect(events.map((e) => e.subject)).toEqual([bo]);
  });
});
