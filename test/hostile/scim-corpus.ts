import { bearerAttacks } from './bearer-attacks.js';
import { jsonTransportVariants } from './body-variants.js';
import { DEEP_OBJECT, ID_SHAPES } from './hostile-values.js';
import type { World } from './hostile-world.js';
import type { HostileRequest } from './send.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SCIM_JSON = { 'content-type': 'application/scim+json' };

const validUser = {
  schemas: [USER],
  userName: 'hostile-new@hostile-a.test',
  name: { givenName: 'H', familyName: 'N' },
};
const validGroup = { schemas: [GROUP], displayName: 'Hostile' };
const validPatch = { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] };

/** User and group bodies no SCIM server may accept: wrong types, missing or broken schemas. */
const invalidUsers: unknown[] = [
  {},
  { userName: 'x' },
  { schemas: 'x', userName: 'x' },
  { schemas: [], userName: 'x' },
  { schemas: ['urn:hostile'], userName: 'x' },
  ...[null, 1, true, [], {}, '', 'a\u0000b', 'a\u001bb', '\udc00'].map((userName) => ({
    schemas: [USER],
    userName,
  })),
  { schemas: [USER], userName: 'x', name: 'flat' },
  { schemas: [USER], userName: 'x', emails: 'x@y' },
  { schemas: [USER], userName: 'x', emails: [{ value: 1 }] },
  { schemas: [USER], userName: 'x', active: 'perhaps' },
];
const invalidGroups: unknown[] = [
  {},
  { schemas: [GROUP] },
  ...[null, 1, [], '', 'a\u0000b'].map((displayName) => ({ schemas: [GROUP], displayName })),
];
const invalidPatches: unknown[] = [
  {},
  { schemas: [PATCH_OP] },
  { schemas: [PATCH_OP], Operations: 'x' },
  { schemas: [PATCH_OP], Operations: [] },
  { schemas: [PATCH_OP], Operations: [{ op: 'hack', path: 'active', value: false }] },
  { schemas: [PATCH_OP], Operations: [{ op: 'add' }] },
  { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: '[[[', value: 'x' }] },
  { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'a'.repeat(5000), value: 'x' }] },
  {
    schemas: [PATCH_OP],
    Operations: [{ op: 'remove', path: `emails[${'type eq "a" and '.repeat(300)}]` }],
  },
  { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }] },
  { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { userName: null } }] },
  { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'userName', value: 'a\u0000b' }] },
];

/** Filters and list parameters: malformed, deeply nested, very long, injections, nonsense paging. */
const badListQueries = [
  'filter=userName%20eq',
  'filter=((((((((((',
  `filter=${'('.repeat(500)}userName%20pr${')'.repeat(500)}`,
  `filter=${'userName%20pr%20and%20'.repeat(250)}userName%20pr`,
  `filter=${'not%20('.repeat(200)}userName%20pr${')'.repeat(200)}`,
  'filter=userName%20eq%20%22a%00b%22',
  'filter=userName%20eq%20%22%E0%A4%A%22',
  "filter=userName%20eq%20%22x'%20or%201=1--%22",
  'filter=userName%20sw%20%22%25%22',
  'filter=id%20eq%20%22not-a-uuid%22',
  'filter=meta.lastModified%20gt%20%22not-a-date%22',
  'filter=emails%5Bemails%5Btype%20eq%20%22a%22%5D%5D',
  'filter=emails%5Btype%20eq%20%22work%22',
  `filter=userName%20eq%20%22${'a'.repeat(5000)}%22`,
  'startIndex=-1',
  'startIndex=abc',
  'count=-1',
  'count=1e10',
  'count=99999999999999999999',
  'sortBy=__proto__',
  'sortOrder=sideways',
  'attributes=%00',
  `excludedAttributes=${'a,'.repeat(2000)}a`,
  'filter=a&filter=b',
];

/** The SCIM endpoints (outside the OpenAPI document): tokens, tenants, ids, bodies, filters. */
export function scimCorpus(w: World, adminToken: string): HostileRequest[] {
  const root = (tenant: string) => `/tenants/${tenant}/scim/v2`;
  const own = root(w.a.id);
  const auth = { authorization: `Bearer ${w.a.scimToken}` };
  const json = (body: unknown) => JSON.stringify(body);
  const requests: HostileRequest[] = [];
  const add = (
    label: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ) =>
    requests.push({ label: `SCIM ${label}`, method, path, headers, ...(body === undefined ? {} : { body }) });

  const writes: [string, string, unknown][] = [
    ['POST', `${own}/Users`, validUser],
    ['PUT', `${own}/Users/${w.a.userId}`, validUser],
    ['PATCH', `${own}/Users/${w.a.userId}`, validPatch],
    ['DELETE', `${own}/Users/${w.a.userId}`, undefined],
    ['POST', `${own}/Groups`, validGroup],
    ['DELETE', `${own}/Groups/${w.a.groupId}`, undefined],
    ['GET', `${own}/Users`, undefined],
  ];
  for (const [method, path, body] of writes) {
    const payload = body === undefined ? undefined : json(body);
    for (const a of bearerAttacks('scim', w, adminToken))
      add(`${method} ${a.label}`, method, path, { authorization: a.header, ...SCIM_JSON }, payload);
    add(
      `${method} another tenant's SCIM token`,
      method,
      path,
      { authorization: `Bearer ${w.b.scimToken}`, ...SCIM_JSON },
      payload,
    );
  }
  for (const shape of ID_SHAPES) add(`tenant ${shape.slice(0, 30)}`, 'GET', `${root(shape)}/Users`, auth);
  for (const shape of ID_SHAPES) {
    for (const kind of ['Users', 'Groups', 'Schemas', 'ResourceTypes'])
      add(`GET ${kind}/${shape.slice(0, 30)}`, 'GET', `${own}/${kind}/${shape}`, auth);
    add(
      `PUT Users/${shape.slice(0, 30)}`,
      'PUT',
      `${own}/Users/${shape}`,
      { ...auth, ...SCIM_JSON },
      json(validUser),
    );
    add(
      `PATCH Groups/${shape.slice(0, 30)}`,
      'PATCH',
      `${own}/Groups/${shape}`,
      { ...auth, ...SCIM_JSON },
      json(validPatch),
    );
    add(`DELETE Users/${shape.slice(0, 30)}`, 'DELETE', `${own}/Users/${shape}`, auth);
  }
  // The other tenant's real users and groups, through this tenant's endpoint: 404, untouched.
  add('GET foreign user', 'GET', `${own}/Users/${w.b.userId}`, auth);
  add('PUT foreign user', 'PUT', `${own}/Users/${w.b.userId}`, { ...auth, ...SCIM_JSON }, json(validUser));
  add(
    'PATCH foreign user',
    'PATCH',
    `${own}/Users/${w.b.userId}`,
    { ...auth, ...SCIM_JSON },
    json(validPatch),
  );
  add('DELETE foreign user', 'DELETE', `${own}/Users/${w.b.userId}`, auth);
  add('DELETE foreign group', 'DELETE', `${own}/Groups/${w.b.groupId}`, auth);

  const bodies: [string, string, unknown[], unknown][] = [
    ['POST', `${own}/Users`, invalidUsers, validUser],
    ['PUT', `${own}/Users/${w.a.userId}`, invalidUsers, validUser],
    ['PATCH', `${own}/Users/${w.a.userId}`, invalidPatches, validPatch],
    ['POST', `${own}/Groups`, invalidGroups, validGroup],
    ['PATCH', `${own}/Groups/${w.a.groupId}`, invalidPatches, validPatch],
  ];
  for (const [method, path, invalid, valid] of bodies) {
    for (const [i, b] of invalid.entries()) {
      add(
        `${method} ${path.split('/').at(-2)} invalid body #${i}`,
        method,
        path,
        { ...auth, ...SCIM_JSON },
        json(b),
      );
    }
    add(`${method} deep objects`, method, path, { ...auth, ...SCIM_JSON }, DEEP_OBJECT);
    for (const v of jsonTransportVariants(valid, invalid[0])) {
      add(`${method} wrapped ${v.label}`, method, path, { ...auth, ...v.headers }, v.body);
      Object.assign(requests.at(-1) as HostileRequest, { expect: v.expect });
    }
  }
  for (const q of badListQueries) {
    add(`Users ?${q.slice(0, 40)}`, 'GET', `${own}/Users?${q}`, auth);
    add(`Groups ?${q.slice(0, 40)}`, 'GET', `${own}/Groups?${q}`, auth);
  }
  for (const [method, path] of [
    ['POST', '/Bulk'],
    ['POST', '/Users/.search'],
    ['GET', '/Me'],
    ['DELETE', '/ServiceProviderConfig'],
    ['PUT', '/Users'],
    ['POST', '/Users/x/y'],
  ] as const)
    add(`${method} ${path}`, method, `${own}${path}`, { ...auth, ...SCIM_JSON }, json({ schemas: [] }));
  return requests;
}
