import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../server/scim/patch/apply-patch.js';
import { body, ENTERPRISE, group, patchGroup, patchUser, scimErrorOf, user } from './scim-patch-fixtures.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('SCIM PATCH mutability', () => {
  it.each([
    ['replace', 'id', 'x'],
    ['replace', 'meta.lastModified', '2026-01-01T00:00:00Z'],
    ['remove', 'meta', undefined],
    ['add', 'groups', [{ value: 'g-1' }]],
    ['replace', `${ENTERPRISE}:manager.displayName`, 'Boss'],
    ['remove', 'userName', undefined],
    ['replace', 'userName', ''],
    ['remove', 'schemas', undefined],
    ['remove', `schemas[value eq "${CORE}"]`, undefined],
  ])('refuses %s %s as mutability', (op, path, value) => {
    scimErrorOf(() => patchUser(user(), { op, path, value }), 'mutability');
  });

  it('refuses a path-less id or meta unless the id is the resource’s own (Okta sends it)', () => {
    scimErrorOf(() => patchUser(user(), { op: 'replace', value: { id: 'other' } }), 'mutability');
    scimErrorOf(
      () => patchUser(user(), { op: 'replace', value: { meta: { version: 'W/"1"' } } }),
      'mutability',
    );
    scimErrorOf(
      () => patchGroup(group(), { op: 'replace', value: { displayName: 'x', id: 'g' } }),
      'mutability',
    );
    const same = applyPatch(group(), body({ op: 'replace', value: { id: 'g', displayName: 'x' } }), 'Group', {
      id: 'g',
    });
    expect(same.changedPaths).toEqual(['displayName']);
    scimErrorOf(() => patchGroup(group(), { op: 'remove', path: 'displayName' }), 'mutability');
  });

  it('keeps schemas to this resource’s URNs and lists an extension once it holds attributes', () => {
    const bare: Record<string, unknown> = { ...user(), schemas: [CORE] };
    delete bare[ENTERPRISE];
    const { resource, changedPaths } = patchUser(bare, { op: 'add', path: 'department', value: 'R&D' });
    expect(resource.schemas).toEqual([CORE, ENTERPRISE]);
    expect(changedPaths).toEqual(['schemas', `${ENTERPRISE}:department`]);
    scimErrorOf(() => patchUser(user(), { op: 'add', path: 'schemas', value: ['urn:x'] }), 'invalidValue');
    const foreign = {
      ...group(),
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group', 'http://x/ADSCIM/Group'],
    };
    expect(patchGroup(foreign, { op: 'replace', path: 'displayName', value: 'x' }).changedPaths).toEqual([
      'displayName',
    ]);
  });
});

describe('SCIM PATCH atomicity', () => {
  it('applies nothing when a later operation fails, and names the failing operation', () => {
    const input = user();
    const error = scimErrorOf(
      () =>
        patchUser(
          input,
          { op: 'replace', path: 'active', value: false },
          { op: 'replace', path: 'nope', value: 1 },
        ),
      'invalidPath',
    );
    expect(error.detail).toMatch(/^Operations\[1\] \(replace nope\): /);
    expect(input).toEqual(user());
  });

  it('never changes the resource it is given', () => {
    const input = deepFreeze(user());
    const { resource } = patchUser(
      input,
      { op: 'add', path: 'emails', value: [{ value: 'h@x', type: 'home', primary: true }] },
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'w@x' },
      { op: 'replace', path: 'name.givenName', value: 'Anna' },
      { op: 'remove', path: 'phoneNumbers[type eq "mobile"]' },
      { op: 'replace', path: 'manager', value: 'm-9' },
      { op: 'remove', path: 'addresses[type eq "work"].locality' },
    );
    expect(input).toEqual(user());
    expect(resource).not.toBe(input);
    expect(resource.emails).toEqual([
      { value: 'w@x', type: 'work' },
      { value: 'h@x', type: 'home', primary: true },
    ]);
    expect(resource.addresses).toEqual([{ type: 'work', streetAddress: 'Calle 1', country: 'ES' }]);
  });
});

describe('SCIM PATCH changedPaths', () => {
  it('lists exactly the attributes whose value changed, in schema order', () => {
    const { changedPaths } = patchUser(
      user(),
      { op: 'replace', path: `${ENTERPRISE}:manager`, value: 'm-2' },
      { op: 'replace', path: 'active', value: false },
      { op: 'replace', path: 'name.givenName', value: 'Anna' },
      { op: 'replace', path: 'externalId', value: 'e-2' },
      { op: 'replace', path: 'title', value: 'Engineer' },
    );
    expect(changedPaths).toEqual(['externalId', 'name.givenName', 'active', `${ENTERPRISE}:manager`]);
  });

  it('ignores changes undone within the request and the order of multi-valued values', () => {
    const undone = patchUser(
      user(),
      { op: 'replace', path: 'active', value: false },
      { op: 'replace', path: 'active', value: 'True' },
      { op: 'remove', path: 'emails[type eq "work"]' },
      { op: 'add', path: 'emails', value: [{ value: 'ana@acme.test', type: 'work', primary: true }] },
    );
    expect(undone.changedPaths).toEqual([]);
    const reordered = patchGroup(
      group(),
      { op: 'remove', path: 'members[value eq "u-1"]' },
      {
        op: 'add',
        path: 'members',
        value: [{ value: 'u-1', display: 'Ana' }],
      },
    );
    expect(reordered.changedPaths).toEqual([]);
  });

  it('counts a change of case as a change', () => {
    expect(patchUser(user(), { op: 'replace', path: 'displayName', value: 'ana ruiz' }).changedPaths).toEqual(
      ['displayName'],
    );
  });
});
