import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../server/scim/patch/apply-patch.js';
import { ENTERPRISE, group, PATCH_OP, user } from './scim-patch-fixtures.js';

/**
 * The PATCH bodies Microsoft Entra ID sends, verbatim from its documentation ("Known issues and
 * resolutions with SCIM 2.0 protocol compliance", without and with the aadOptscim062020 flag, and the
 * request examples of "Tutorial: Develop and plan provisioning for a SCIM endpoint"), plus the
 * attribute-mapping paths it documents (`phoneNumbers[type eq "fax"].value`, `emails[type eq "other"].Value`).
 */
const patchedUser = (operations: unknown[]) =>
  applyPatch(user(), { schemas: [PATCH_OP], Operations: operations }, 'User');
const patchedGroup = (operations: unknown[]) =>
  applyPatch(group(), { schemas: [PATCH_OP], Operations: operations }, 'Group');
const enterprise = (resource: Record<string, unknown>) =>
  resource[ENTERPRISE] as Record<string, unknown> | undefined;

describe('Microsoft Entra ID PATCH requests', () => {
  it.each([
    ['without the flag', { op: 'Replace', path: 'active', value: 'False' }],
    ['with the flag', { op: 'replace', path: 'active', value: false }],
    ['path-less, as older jobs send it', { op: 'Replace', value: { active: 'False' } }],
  ])('disables a user %s', (_, operation) => {
    const { resource, changedPaths } = patchedUser([operation]);
    expect(resource.active).toBe(false);
    expect(changedPaths).toEqual(['active']);
  });

  it('adds a single-valued string attribute, with and without the flag', () => {
    for (const op of ['Add', 'add']) {
      const { resource, changedPaths } = patchedUser([{ op, path: 'nickName', value: 'Babs' }]);
      expect(resource.nickName).toBe('Babs');
      expect(changedPaths).toEqual(['nickName']);
    }
  });

  it('replaces multiple attributes without the flag', () => {
    const { resource, changedPaths } = patchedUser([
      { op: 'Replace', path: 'displayName', value: 'Pvlo' },
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'TestBcwqnm@test.microsoft.com' },
      { op: 'Replace', path: 'name.givenName', value: 'Gtfd' },
      { op: 'Replace', path: 'name.familyName', value: 'Pkqf' },
      { op: 'Replace', path: 'externalId', value: 'Eqpj' },
      { op: 'Replace', path: `${ENTERPRISE}:employeeNumber`, value: 'Eqpj' },
    ]);
    expect(resource).toMatchObject({ displayName: 'Pvlo', externalId: 'Eqpj' });
    expect(resource.name).toEqual({ givenName: 'Gtfd', familyName: 'Pkqf', formatted: 'Ana Ruiz' });
    expect(resource.emails).toEqual([
      { value: 'TestBcwqnm@test.microsoft.com', type: 'work', primary: true },
    ]);
    expect(enterprise(resource)?.employeeNumber).toBe('Eqpj');
    expect(changedPaths).toEqual([
      'externalId',
      'name.familyName',
      'name.givenName',
      'displayName',
      'emails',
      `${ENTERPRISE}:employeeNumber`,
    ]);
  });

  it('replaces multiple attributes with the flag: path-less, dotted and URN members', () => {
    const { resource, changedPaths } = patchedUser([
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'TestMhvaes@test.microsoft.com' },
      {
        op: 'replace',
        value: {
          displayName: 'Bjfe',
          'name.givenName': 'Kkom',
          'name.familyName': 'Unua',
          [`${ENTERPRISE}:employeeNumber`]: 'Aklq',
        },
      },
    ]);
    expect(resource).toMatchObject({ displayName: 'Bjfe', name: { givenName: 'Kkom', familyName: 'Unua' } });
    expect(resource.emails).toEqual([
      { value: 'TestMhvaes@test.microsoft.com', type: 'work', primary: true },
    ]);
    expect(enterprise(resource)?.employeeNumber).toBe('Aklq');
    expect(changedPaths).toEqual([
      'name.familyName',
      'name.givenName',
      'displayName',
      'emails',
      `${ENTERPRISE}:employeeNumber`,
    ]);
  });

  it('creates the work e-mail, mobile and fax numbers and work address it sets on a user without them', () => {
    const bare = { schemas: user().schemas, userName: 'ben@acme.test', active: true };
    const { resource, changedPaths } = applyPatch(
      bare,
      {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'ben@acme.test' },
          { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+34 600' },
          { op: 'Add', path: 'phoneNumbers[type eq "fax"].value', value: '+34 900' },
          { op: 'Add', path: 'addresses[type eq "work"].postalCode', value: '28001' },
          { op: 'Add', path: 'emails[type eq "other"].Value', value: 'ben@proxy.test' },
        ],
      },
      'User',
    );
    expect(resource.emails).toEqual([
      { type: 'work', value: 'ben@acme.test' },
      { type: 'other', value: 'ben@proxy.test' },
    ]);
    expect(resource.phoneNumbers).toEqual([
      { type: 'mobile', value: '+34 600' },
      { type: 'fax', value: '+34 900' },
    ]);
    expect(resource.addresses).toEqual([{ type: 'work', postalCode: '28001' }]);
    expect(changedPaths).toEqual(['emails', 'phoneNumbers', 'addresses']);
  });

  it('updates userName and a group displayName', () => {
    const renamed = patchedUser([
      { op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' },
    ]);
    expect(renamed.resource.userName).toBe('5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com');
    const value = '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName';
    const group = patchedGroup([{ op: 'Replace', path: 'displayName', value }]);
    expect(group.resource.displayName).toBe(value);
    expect(group.changedPaths).toEqual(['displayName']);
  });

  it('adds members, ignoring their null $ref, and not twice', () => {
    const add = { op: 'Add', path: 'members', value: [{ $ref: null, value: 'f648f8d5ea4e4cd38e9c' }] };
    const { resource, changedPaths } = patchedGroup([add, add]);
    expect(resource.members).toEqual([
      { value: 'u-1', display: 'Ana' },
      { value: 'u-2', display: 'Ben' },
      { value: 'f648f8d5ea4e4cd38e9c' },
    ]);
    expect(changedPaths).toEqual(['members']);
    expect(patchedGroup([{ ...add, value: [{ $ref: null, value: 'u-1' }] }]).changedPaths).toEqual([]);
  });

  it('removes a member without the flag (path plus value) and with it (filter)', () => {
    const without = patchedGroup([{ op: 'Remove', path: 'members', value: [{ value: 'u-1' }] }]);
    const withFlag = patchedGroup([{ op: 'remove', path: 'members[value eq "u-1"]' }]);
    for (const { resource, changedPaths } of [without, withFlag]) {
      expect(resource.members).toEqual([{ value: 'u-2', display: 'Ben' }]);
      expect(changedPaths).toEqual(['members']);
    }
    const absent = patchedGroup([
      { op: 'remove', path: 'members[value eq "7f4bc1a3-285e-48ae-8202-5accb43efb0e"]' },
    ]);
    expect(absent.changedPaths).toEqual([]);
  });

  it('sets the manager from a bare id, an object or its one-element list, by URN or short path', () => {
    const id = '00aa00aa-bb11-cc22-dd33-44ee44ee44ee';
    const ref = `http://localhost/scim/Users/${id}`;
    for (const operation of [
      { op: 'Replace', path: `${ENTERPRISE}:manager`, value: id },
      { op: 'Add', path: `${ENTERPRISE}:manager`, value: { value: id } },
      { op: 'Add', path: 'manager', value: [{ $ref: ref, value: id }] },
    ]) {
      const { resource, changedPaths } = patchedUser([operation]);
      expect(enterprise(resource)?.manager).toMatchObject({ value: id });
      expect(changedPaths).toEqual([`${ENTERPRISE}:manager`]);
    }
  });

  it.each([
    { op: 'Remove', path: 'manager' },
    { op: 'Remove', path: `${ENTERPRISE}:manager` },
    { op: 'Replace', path: `${ENTERPRISE}:manager`, value: { value: null } },
    { op: 'Replace', path: `${ENTERPRISE}:manager`, value: '' },
    { op: 'Replace', path: 'manager', value: { value: '' } },
    { op: 'Remove', path: `${ENTERPRISE}:manager`, value: [{ value: 'boss-id' }] },
  ])('removes the manager with %j', (operation) => {
    const { resource, changedPaths } = patchedUser([operation]);
    expect(enterprise(resource)).not.toHaveProperty('manager');
    expect(changedPaths).toEqual([`${ENTERPRISE}:manager`]);
  });

  it('adds a role with a string primary', () => {
    const role = { primary: 'True', type: 'WindowsAzureActiveDirectoryRole', value: 'Admin' };
    const { resource } = patchedUser([{ op: 'Add', path: 'roles', value: [role] }]);
    expect(resource.roles).toEqual([{ ...role, primary: true }]);
  });
});
