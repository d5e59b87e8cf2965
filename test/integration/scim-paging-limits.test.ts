import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimClient } from '../support/scim-client.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * `startIndex` and `count` past what a number or a PostgreSQL bigint holds (issue 21, defect 4):
 * RFC 7644 section 3.4.2.4 reads a startIndex below 1 as 1 and a count below 0 as 0, and a page
 * past the end is empty with the real total. Those values must reach neither the SQL paging nor the
 * answer unclamped; a value that is no integer at all stays a 400 invalidValue.
 */
let t: TestService;
let scim: ReturnType<typeof scimClient>;
beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } as never });
  if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
  scim = scimClient(t.baseUrl, created.body.id, created.body.scim_token);
  for (const name of ['a@acme.test', 'b@acme.test', 'c@acme.test']) {
    const res = await scim.post('/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: name,
      name: { givenName: 'Ana', familyName: name },
      emails: [{ value: name, primary: true, type: 'work' }],
    });
    expect(res.status).toBe(201);
  }
  const group = await scim.post('/Groups', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName: 'Staff',
  });
  expect(group.status).toBe(201);
});
afterAll(() => t?.stop());

// The unfiltered user page, the filtered one (a statement of its own each) and the group list.
const LISTS = ['/Users?', `/Users?filter=${encodeURIComponent('userName pr')}&`, '/Groups?'];
const HUGE = ['99999999999999999999', '9223372036854775808', '1e99', '1E400'];

describe('SCIM list paging at the limits of its numbers', () => {
  it.each(LISTS)('a startIndex past the end of %s is an empty page with the total', async (list) => {
    for (const startIndex of HUGE) {
      const res = await scim.get(`${list}startIndex=${startIndex}`);
      expect(res.status, startIndex).toBe(200);
      expect(res.body).toMatchObject({ itemsPerPage: 0, Resources: [] });
      expect(res.body.totalResults).toBe(list === '/Groups?' ? 1 : 3);
      // An integer that JSON readers hold exactly, still past the end.
      expect(Number.isSafeInteger(res.body.startIndex)).toBe(true);
      expect(res.body.startIndex).toBeGreaterThan(3);
    }
  });

  it.each(LISTS)('a startIndex far below 1 in %s reads as 1', async (list) => {
    for (const startIndex of ['-99999999999999999999', '-1e99', '0']) {
      const res = await scim.get(`${list}startIndex=${startIndex}&count=1`);
      expect(res.status, startIndex).toBe(200);
      expect(res.body).toMatchObject({ startIndex: 1, itemsPerPage: 1 });
    }
  });

  it.each(LISTS)('a huge count in %s is cut, a hugely negative one is 0', async (list) => {
    for (const count of HUGE) {
      const res = await scim.get(`${list}count=${count}`);
      expect(res.status, count).toBe(200);
      expect(res.body.itemsPerPage).toBe(list === '/Groups?' ? 1 : 3);
    }
    const none = await scim.get(`${list}count=-99999999999999999999`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ itemsPerPage: 0, Resources: [] });
  });

  it.each(LISTS)('a startIndex or count that is no integer in %s is a 400 invalidValue', async (list) => {
    for (const query of [
      'startIndex=1.5',
      'startIndex=abc',
      'startIndex=Infinity',
      'count=NaN',
      'count=2.5',
    ]) {
      const res = await scim.get(`${list}${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '400',
        scimType: 'invalidValue',
      });
    }
  });
});
