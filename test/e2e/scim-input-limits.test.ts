import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchOp, scimClient } from '../support/scim-client.js';
import { acmeTenant, startTestService, type TestService } from '../support/test-service.js';

/**
 * Values PostgreSQL cannot store or index (over-long strings in indexed columns, NUL, half a
 * surrogate pair) are a SCIM 400 invalidValue naming the attribute, never a 500, and store nothing;
 * values up to the declared limit are stored, even in the widest UTF-8.
 */
let t: TestService;
let scim: ReturnType<typeof scimClient>;

beforeAll(async () => {
  t = await startTestService();
  const created = await t.admin.createTenant({ body: { ...acmeTenant(), delivery: 'direct' } });
  if (created.status !== 201) throw new Error('no tenant');
  scim = scimClient(t.baseUrl, created.body.id, created.body.scim_token);
});
afterAll(() => t.stop());

/** Text that does not compress (a btree entry is compressed first): random CJK, 3 bytes each. */
const incompressible = (length: number) =>
  Array.from({ length }, () => String.fromCodePoint(0x4e00 + randomInt(0x5000))).join('');
const user = (userName: string, more: Record<string, unknown> = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Ana', familyName: 'Ruiz' },
  emails: [{ value: 'ana@acme.test', primary: true }],
  ...more,
});
const count = async (path: string) => (await scim.get(path)).body.totalResults as number;

type Refusal = () => Promise<{ status: number; body: { detail: string; scimType: string } }>;

describe('SCIM values the database cannot hold', () => {
  const tooLong: [string, Refusal, RegExp][] = [
    ['userName', () => scim.post('/Users', user(incompressible(2800))), /^userName is longer than 512/],
    [
      'displayName',
      () => scim.post('/Users', user('long.display', { displayName: incompressible(2800) })),
      /^displayName is longer than 512/,
    ],
    [
      'group displayName',
      () => scim.post('/Groups', { displayName: incompressible(2800) }),
      /^displayName is longer than 512/,
    ],
    [
      'an unindexed attribute',
      () => scim.post('/Users', user('long.title', { title: 'x'.repeat(16_385) })),
      /^title is longer than 16384/,
    ],
  ];
  it.each(tooLong)(
    'refuses a too long %s with 400 invalidValue naming it, storing nothing',
    async (_n, send, detail) => {
      const before = [await count('/Users'), await count('/Groups')];
      const res = await send();
      expect(res.status).toBe(400);
      expect(res.body.scimType).toBe('invalidValue');
      expect(res.body.detail).toMatch(detail);
      expect([await count('/Users'), await count('/Groups')]).toEqual(before);
    },
  );

  // The HTTP edge refuses these in any body (invalidSyntax); behind it, the SCIM layer names the
  // attribute as invalidValue (test/unit/scim-value-limits.test.ts). Either way: a 400, not a 500.
  const unstorable: [string, Refusal][] = [
    ['a NUL in userName', () => scim.post('/Users', user('nul\u0000@acme.test'))],
    ['a lone surrogate in userName', () => scim.post('/Users', user('half\ud800@acme.test'))],
    [
      'a NUL in an enterprise attribute',
      () =>
        scim.post(
          '/Users',
          user('ent@acme.test', {
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R\u0000D' },
          }),
        ),
    ],
    [
      'a lone surrogate in an e-mail',
      () => scim.post('/Users', user('m@acme.test', { emails: [{ value: '\udc00' }] })),
    ],
    [
      'a NUL in a group member display',
      () => scim.post('/Groups', { displayName: 'G', members: [{ value: 'x', display: '\u0000' }] }),
    ],
  ];
  it.each(unstorable)('refuses %s with a SCIM 400, storing nothing', async (_name, send) => {
    const before = [await count('/Users'), await count('/Groups')];
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.body.scimType).toMatch(/^invalid(Value|Syntax)$/);
    expect([await count('/Users'), await count('/Groups')]).toEqual(before);
  });

  it('refuses the same in PATCH and PUT, leaving the user as it was', async () => {
    const ana = await scim.post('/Users', user('ana@acme.test', { title: 'Engineer' }));
    expect(ana.status).toBe(201);
    const path = `/Users/${ana.body.id}`;
    const attempts = [
      scim.patch(path, patchOp({ op: 'replace', path: 'title', value: 'a\u0000b' })),
      scim.patch(path, patchOp({ op: 'replace', value: { displayName: incompressible(2800) } })),
      scim.patch(path, patchOp({ op: 'add', path: 'nickName', value: '\ud83d' })),
      scim.put(path, user(incompressible(600), { title: 'Engineer' })),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.body.scimType).toMatch(/^invalid(Value|Syntax)$/);
    }
    const now = await scim.get(path);
    expect(now.body).toMatchObject({
      userName: 'ana@acme.test',
      title: 'Engineer',
      meta: { version: 'W/"1"' },
    });
  });

  it('stores values up to the limit, even four bytes a character, and finds them again', async () => {
    const emoji = Array.from({ length: 512 }, () => String.fromCodePoint(0x1f300 + randomInt(0x200))).join(
      '',
    );
    const created = await scim.post('/Users', user(emoji, { displayName: incompressible(512) }));
    expect(created.status).toBe(201);
    expect(await count(`/Users?filter=${encodeURIComponent(`userName eq "${emoji}"`)}`)).toBe(1);
    const group = await scim.post('/Groups', { displayName: incompressible(512) });
    expect(group.status).toBe(201);
    const limits = await scim.get('/Schemas/urn:ietf:params:scim:schemas:core:2.0:User');
    const userName = limits.body.attributes.find((a: { name: string }) => a.name === 'userName');
    expect(userName.description).toBe('At most 512 characters.');
  });
});
