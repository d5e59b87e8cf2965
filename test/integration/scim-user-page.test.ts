import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchOp, scimClient } from '../support/scim-client.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * An unfiltered /Users page is read by one statement of its own (directory/scim-user-page.ts); a
 * filtered one still by listScimResources plus the group and credential reads. `userName pr` matches
 * every user, so both paths must answer the very same ListResponse, byte for byte: totals, order,
 * groups, credential states (valid, none after a deactivation, offered, none with its reason), the signed credential
 * when asked for, and pages at the start, in the middle and past the end.
 */
const CREDENTIAL = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';
const user = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Ana', familyName: userName },
  emails: [{ value: userName, primary: true, type: 'work' }],
});

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.stop());

async function tenantWith(body: Record<string, unknown>) {
  const created = await t.admin.createTenant({ body: body as never });
  if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
  return scimClient(t.baseUrl, created.body.id, created.body.scim_token);
}

/** Both paths' answers for the same page, as raw text compared after parsing (same keys, same order). */
async function bothPaths(scim: ReturnType<typeof scimClient>, query: string) {
  const unfiltered = await scim.get(`/Users?${query}`);
  const filtered = await scim.get(`/Users?${query}&filter=${encodeURIComponent('userName pr')}`);
  expect(unfiltered.status).toBe(200);
  expect(filtered.status).toBe(200);
  expect(JSON.stringify(unfiltered.body)).toBe(JSON.stringify(filtered.body));
  return unfiltered.body;
}

describe('an unfiltered SCIM user page', () => {
  it('equals the filtered path for every page of a directly delivered tenant', async () => {
    const scim = await tenantWith({ ...acmeTenant(), delivery: 'direct' });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await scim.post('/Users', user(`u${i}@acme.test`));
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    for (const [name, members] of [
      ['Zeta', [ids[1], ids[2]]],
      ['Alpha', [ids[2]]],
    ] as const) {
      const res = await scim.post('/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: name,
        members: members.map((value) => ({ value })),
      });
      expect(res.status).toBe(201);
    }
    expect(
      (await scim.patch(`/Users/${ids[3]}`, patchOp({ op: 'replace', path: 'active', value: false }))).status,
    ).toBe(204);

    const first = await bothPaths(scim, 'startIndex=1&count=4');
    expect(first).toMatchObject({ totalResults: 7, startIndex: 1, itemsPerPage: 4 });
    expect(first.Resources.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 4));
    expect(first.Resources[2].groups.map((g: { display: string }) => g.display)).toEqual(['Alpha', 'Zeta']);
    expect(first.Resources.map((r: Record<string, { status: string }>) => r[CREDENTIAL]?.status)).toEqual([
      'valid',
      'valid',
      'valid',
      'none',
    ]);
    const middle = await bothPaths(scim, 'startIndex=4&count=3');
    expect(middle.Resources.map((r: { id: string }) => r.id)).toEqual(ids.slice(3, 6));
    const last = await bothPaths(scim, 'startIndex=6&count=50');
    expect(last).toMatchObject({ totalResults: 7, startIndex: 6, itemsPerPage: 2 });
    expect(await bothPaths(scim, 'startIndex=8&count=5')).toMatchObject({
      totalResults: 7,
      itemsPerPage: 0,
      Resources: [],
    });
    expect(await bothPaths(scim, 'count=0')).toMatchObject({ totalResults: 7, itemsPerPage: 0 });
    expect((await bothPaths(scim, '')).itemsPerPage).toBe(7);

    const signed = await bothPaths(
      scim,
      `startIndex=1&count=2&attributes=${encodeURIComponent(`${CREDENTIAL}:credential`)}`,
    );
    expect(signed.Resources[0][CREDENTIAL].credential).toEqual(expect.any(String));
  });

  it('stays the same page when users are added or removed between pages', async () => {
    // Each page served teaches the node where its first and last users stand; the next page starts
    // there, unless a user was added or removed since, which this test does between pages.
    const scim = await tenantWith({ ...acmeTenant(), delivery: 'direct' });
    const ids: string[] = [];
    const add = async (name: string) => {
      const res = await scim.post('/Users', user(name));
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    };
    for (let i = 0; i < 9; i++) await add(`p${i}@acme.test`);
    const pageOf = async (startIndex: number) =>
      (await bothPaths(scim, `startIndex=${startIndex}&count=3`)).Resources.map((r: { id: string }) => r.id);

    expect(await pageOf(1)).toEqual(ids.slice(0, 3));
    expect(await pageOf(4)).toEqual(ids.slice(3, 6));
    expect(await pageOf(5)).toEqual(ids.slice(4, 7));
    expect(await pageOf(7)).toEqual(ids.slice(6, 9));
    // A change that keeps every user where it was changes no position.
    const renamed = await scim.patch(
      `/Users/${ids[4]}`,
      patchOp({ op: 'replace', path: 'displayName', value: 'X' }),
    );
    expect(renamed.status).toBe(204);
    expect(await pageOf(5)).toEqual(ids.slice(4, 7));

    expect((await scim.delete(`/Users/${ids[1]}`)).status).toBe(204);
    const left = ids.filter((_, i) => i !== 1);
    expect(await pageOf(4)).toEqual(left.slice(3, 6));
    expect(await pageOf(7)).toEqual(left.slice(6, 9));
    await add('late@acme.test');
    const now = [...left, ids[ids.length - 1]];
    expect(await pageOf(7)).toEqual(now.slice(6, 9));
    expect(await pageOf(8)).toEqual(now.slice(7, 10));
    expect((await bothPaths(scim, 'startIndex=10&count=3')).totalResults).toBe(9);
  });

  it('equals the filtered path for offered credentials and for users a tenant cannot issue to', async () => {
    const mailed = await tenantWith(acmeTenant());
    expect((await mailed.post('/Users', user('mailed@acme.test'))).status).toBe(201);
    const offered = await bothPaths(mailed, 'startIndex=1&count=10');
    expect(offered.Resources[0][CREDENTIAL]).toMatchObject({
      status: 'offered',
      issuanceId: expect.any(String),
    });

    const { mandator: _none, ...bare } = { ...acmeTenant(), delivery: 'direct' as const };
    const unable = await tenantWith(bare);
    expect((await unable.post('/Users', user('bare@acme.test'))).status).toBe(201);
    const none = await bothPaths(unable, 'startIndex=1&count=10');
    expect(none.Resources[0][CREDENTIAL]).toMatchObject({ status: 'none', reason: expect.any(String) });
  });
});
