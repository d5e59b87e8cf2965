import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../server/scim/patch/apply-patch.js';
import { body, ENTERPRISE, PATCH_OP, patchUser, scimErrorOf, user } from './scim-patch-fixtures.js';

describe('SCIM PATCH body', () => {
  it.each([
    ['a non-object', 'nope'],
    ['an array', [{ op: 'add' }]],
    ['no schemas', { Operations: [{ op: 'add', path: 'title', value: 'x' }] }],
    ['another schema', { schemas: ['urn:x'], Operations: [{ op: 'add', path: 'title', value: 'x' }] }],
    ['no Operations', { schemas: [PATCH_OP] }],
    ['empty Operations', body()],
    ['an Operations object', { schemas: [PATCH_OP], Operations: { op: 'add' } }],
    ['an unknown op', body({ op: 'merge', path: 'title', value: 'x' })],
    ['an op that is no string', body({ op: 1, path: 'title', value: 'x' })],
    ['an operation that is no object', body('add')],
    ['a path that is no string', body({ op: 'add', path: 3, value: 'x' })],
    ['an add without value', body({ op: 'add', path: 'title' })],
    ['a replace without value', body({ op: 'replace' })],
    [
      'too many operations',
      body(...Array.from({ length: 1001 }, () => ({ op: 'add', path: 'title', value: 'x' }))),
    ],
  ])('refuses %s as invalidSyntax', (_, request) => {
    scimErrorOf(() => applyPatch(user(), request, 'User'), 'invalidSyntax');
  });

  it('takes 1000 operations and ops and member names in any case', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ OP: 'Replace', PATH: 'title', VALUE: `t${i}` }));
    const result = applyPatch(user(), { SCHEMAS: [PATCH_OP.toUpperCase()], operations: many }, 'User');
    expect(result.resource.title).toBe('t999');
    for (const op of ['Add', 'REPLACE', 'add', 'rEpLaCe']) {
      expect(patchUser(user(), { op, path: 'title', value: op }).resource.title).toBe(op);
    }
    expect(patchUser(user(), { op: 'Remove', path: 'title' }).resource.title).toBeUndefined();
  });

  it('refuses an empty path as invalidPath and a path-less remove as noTarget (RFC 7644 3.5.2.2)', () => {
    scimErrorOf(() => patchUser(user(), { op: 'add', path: ' ', value: 'x' }), 'invalidPath');
    scimErrorOf(() => patchUser(user(), { op: 'remove' }), 'noTarget');
  });

  it('treats a null path as no path', () => {
    expect(patchUser(user(), { op: 'replace', path: null, value: { title: 'CTO' } }).resource.title).toBe(
      'CTO',
    );
  });
});

describe('SCIM PATCH add', () => {
  it('sets a single-valued attribute, replacing what was there', () => {
    const { resource, changedPaths } = patchUser(user(), { op: 'add', path: 'title', value: 'CTO' });
    expect(resource.title).toBe('CTO');
    expect(changedPaths).toEqual(['title']);
    expect(patchUser(user(), { op: 'add', path: 'nickName', value: 'Babs' }).resource.nickName).toBe('Babs');
  });

  it('merges the sub-attributes of a complex attribute', () => {
    const { resource, changedPaths } = patchUser(user(), {
      op: 'add',
      path: 'name',
      value: { middleName: 'M' },
    });
    expect(resource.name).toEqual({
      givenName: 'Ana',
      familyName: 'Ruiz',
      formatted: 'Ana Ruiz',
      middleName: 'M',
    });
    expect(changedPaths).toEqual(['name.middleName']);
  });

  it('appends to a multi-valued attribute without repeating a value it holds', () => {
    const added = patchUser(user(), {
      op: 'add',
      path: 'emails',
      value: [{ value: 'ana@home.test', type: 'home' }],
    });
    expect(added.resource.emails).toEqual([
      { value: 'ana@acme.test', type: 'work', primary: true },
      { value: 'ana@home.test', type: 'home' },
    ]);
    expect(added.changedPaths).toEqual(['emails']);
    const again = patchUser(user(), {
      op: 'add',
      path: 'emails',
      value: [{ value: 'ANA@acme.test', type: 'work' }],
    });
    expect(again.resource.emails).toEqual([{ value: 'ANA@acme.test', type: 'work', primary: true }]);
    const same = patchUser(user(), { op: 'add', path: 'emails', value: { value: 'ana@acme.test' } });
    expect(same.changedPaths).toEqual([]);
    const twice = patchUser(user(), {
      op: 'add',
      path: 'phoneNumbers',
      value: [{ value: '1' }, { value: '1' }],
    });
    expect(twice.resource.phoneNumbers).toEqual([{ value: '+34 600', type: 'mobile' }, { value: '1' }]);
  });

  it('adds the members of a path-less value, appending to multi-valued ones', () => {
    const { resource, changedPaths } = patchUser(user(), {
      op: 'add',
      value: { nickName: 'Babs', phoneNumbers: [{ value: '+34 700', type: 'work' }] },
    });
    expect(resource.nickName).toBe('Babs');
    expect(resource.phoneNumbers).toHaveLength(2);
    expect(changedPaths).toEqual(['nickName', 'phoneNumbers']);
  });

  it('refuses a path-less value that is no object', () => {
    scimErrorOf(() => patchUser(user(), { op: 'add', value: 'x' }), 'invalidValue');
    scimErrorOf(() => patchUser(user(), { op: 'replace', value: [{ title: 'x' }] }), 'invalidValue');
  });
});

describe('SCIM PATCH replace', () => {
  it('merges a path-less value into the resource, and sub-objects into complex attributes', () => {
    const { resource, changedPaths } = patchUser(user(), {
      op: 'replace',
      value: { title: 'CTO', name: { givenName: 'Anna' } },
    });
    expect(resource.title).toBe('CTO');
    expect(resource.name).toEqual({ givenName: 'Anna', familyName: 'Ruiz', formatted: 'Ana Ruiz' });
    expect(changedPaths).toEqual(['name.givenName', 'title']);
  });

  it('swaps the whole set of a multi-valued attribute', () => {
    const next = [{ value: 'new@acme.test', type: 'work', primary: true }];
    const { resource, changedPaths } = patchUser(user(), { op: 'replace', path: 'emails', value: next });
    expect(resource.emails).toEqual(next);
    expect(changedPaths).toEqual(['emails']);
  });

  it('treats an attribute without a value as an add (RFC 7644 3.5.2.3)', () => {
    const { resource } = patchUser(user(), {
      op: 'replace',
      path: 'ims',
      value: [{ value: 'ana', type: 'xmpp' }],
    });
    expect(resource.ims).toEqual([{ value: 'ana', type: 'xmpp' }]);
    expect(patchUser(user(), { op: 'replace', path: 'locale', value: 'es-ES' }).resource.locale).toBe(
      'es-ES',
    );
  });

  it.each([null, ''])('unsets an attribute given %j', (value) => {
    const { resource, changedPaths } = patchUser(user(), { op: 'replace', path: 'title', value });
    expect(resource).not.toHaveProperty('title');
    expect(changedPaths).toEqual(['title']);
    expect(patchUser(user(), { op: 'replace', path: 'name.formatted', value }).resource.name).toEqual({
      givenName: 'Ana',
      familyName: 'Ruiz',
    });
    expect(patchUser(user(), { op: 'replace', value: { emails: value } }).resource).not.toHaveProperty(
      'emails',
    );
    expect(patchUser(user(), { op: 'add', path: 'title', value }).resource).not.toHaveProperty('title');
  });

  it('reports nothing for a replace with the value already held', () => {
    const { resource, changedPaths } = patchUser(
      user(),
      { op: 'replace', path: 'active', value: true },
      { op: 'replace', value: { displayName: 'Ana Ruiz', name: { givenName: 'Ana' } } },
      { op: 'replace', path: 'emails', value: [{ value: 'ana@acme.test', type: 'work', primary: true }] },
      { op: 'replace', path: `${ENTERPRISE}:manager`, value: 'boss-id' },
    );
    expect(resource).toEqual(user());
    expect(changedPaths).toEqual([]);
  });
});
