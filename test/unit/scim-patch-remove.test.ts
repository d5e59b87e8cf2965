import { describe, expect, it } from 'vitest';
import { ENTERPRISE, group, patchGroup, patchUser, scimErrorOf, user } from './scim-patch-fixtures.js';

describe('SCIM PATCH remove', () => {
  it('removes single-valued, complex and multi-valued attributes', () => {
    expect(patchUser(user(), { op: 'remove', path: 'title' }).resource).not.toHaveProperty('title');
    const name = patchUser(user(), { op: 'remove', path: 'name' });
    expect(name.resource).not.toHaveProperty('name');
    expect(name.changedPaths).toEqual(['name.formatted', 'name.familyName', 'name.givenName']);
    const emails = patchUser(user(), { op: 'remove', path: 'emails' });
    expect(emails.resource).not.toHaveProperty('emails');
    expect(emails.changedPaths).toEqual(['emails']);
  });

  it('removes a sub-attribute, and the complex attribute once it holds nothing', () => {
    const once = patchUser(user(), { op: 'remove', path: 'name.formatted' });
    expect(once.resource.name).toEqual({ givenName: 'Ana', familyName: 'Ruiz' });
    const all = patchUser(
      user(),
      { op: 'remove', path: 'name.formatted' },
      { op: 'remove', path: 'name.givenName' },
      { op: 'remove', path: 'name.familyName' },
    );
    expect(all.resource).not.toHaveProperty('name');
  });

  it('changes nothing when the attribute has no value', () => {
    const { resource, changedPaths } = patchUser(user(), { op: 'remove', path: 'nickName' });
    expect(resource).toEqual(user());
    expect(changedPaths).toEqual([]);
  });

  it('removes the extension object with its last attribute, keeping its URN in schemas', () => {
    const { resource } = patchUser(
      user(),
      { op: 'remove', path: `${ENTERPRISE}:employeeNumber` },
      { op: 'remove', path: 'department' },
      { op: 'remove', path: 'manager' },
    );
    expect(resource).not.toHaveProperty(ENTERPRISE);
    expect(resource.schemas).toContain(ENTERPRISE);
    expect(patchUser(user(), { op: 'remove', path: ENTERPRISE }).resource).not.toHaveProperty(ENTERPRISE);
  });

  it('refuses to remove the resource itself as noTarget', () => {
    const path = 'urn:ietf:params:scim:schemas:core:2.0:User';
    scimErrorOf(() => patchUser(user(), { op: 'remove', path }), 'noTarget');
  });

  it('removes only the given values when a remove carries a value', () => {
    const { resource, changedPaths } = patchGroup(group(), {
      op: 'remove',
      path: 'members',
      value: [{ value: 'U-1' }],
    });
    expect(resource.members).toEqual([{ value: 'u-2', display: 'Ben' }]);
    expect(changedPaths).toEqual(['members']);
    const other = patchUser(user(), { op: 'remove', path: 'manager', value: [{ value: 'someone-else' }] });
    expect(other.changedPaths).toEqual([]);
  });
});

describe('SCIM PATCH on a Group', () => {
  it('renames, and adds and removes members', () => {
    const { resource, changedPaths } = patchGroup(
      group(),
      { op: 'replace', path: 'displayName', value: 'Owners' },
      { op: 'add', path: 'members', value: [{ value: 'u-3', display: 'Cy' }] },
      { op: 'remove', path: 'members[value eq "u-1"]' },
    );
    expect(resource.displayName).toBe('Owners');
    expect(resource.members).toEqual([
      { value: 'u-2', display: 'Ben' },
      { value: 'u-3', display: 'Cy' },
    ]);
    expect(changedPaths).toEqual(['displayName', 'members']);
  });

  it('knows no User attributes', () => {
    scimErrorOf(() => patchGroup(group(), { op: 'add', path: 'emails', value: [] }), 'invalidPath');
    scimErrorOf(
      () => patchGroup(group(), { op: 'add', path: `${ENTERPRISE}:department`, value: 'x' }),
      'invalidPath',
    );
  });
});
