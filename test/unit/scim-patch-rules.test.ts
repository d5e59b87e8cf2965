import { describe, expect, it } from 'vitest';
import { ENTERPRISE, patchUser, scimErrorOf, user } from './scim-patch-fixtures.js';

const CORE = 'urn:ietf:params:scim:schemas:core:2.0:User';

describe('SCIM PATCH attribute names', () => {
  it('maps any casing of paths and value members onto canonical names', () => {
    const { resource, changedPaths } = patchUser(
      user(),
      { op: 'replace', path: 'USERNAME', value: 'ana@acme.example' },
      { op: 'replace', path: 'Name.GivenName', value: 'Anna' },
      { op: 'add', value: { NICKNAME: 'Babs', PhoneNumbers: [{ Value: '1', TYPE: 'work' }] } },
    );
    expect(resource).toMatchObject({ userName: 'ana@acme.example', nickName: 'Babs' });
    expect(resource.name).toMatchObject({ givenName: 'Anna' });
    expect(resource.phoneNumbers).toContainEqual({ value: '1', type: 'work' });
    expect(changedPaths).toEqual(['userName', 'name.givenName', 'nickName', 'phoneNumbers']);
  });

  it('takes schema URN prefixes, in any case, and enterprise names without them', () => {
    const { resource, changedPaths } = patchUser(
      user(),
      { op: 'replace', path: `${CORE}:userName`, value: 'a@acme.test' },
      { op: 'replace', path: `${ENTERPRISE.toUpperCase()}:DEPARTMENT`, value: 'Sales' },
      { op: 'replace', path: `${ENTERPRISE}:manager.value`, value: 'm-2' },
      { op: 'replace', path: 'costCenter', value: 'CC-1' },
      { op: 'replace', path: CORE, value: { title: 'CTO' } },
    );
    expect(resource).toMatchObject({ userName: 'a@acme.test', title: 'CTO' });
    expect(resource[ENTERPRISE]).toEqual({
      employeeNumber: '42',
      department: 'Sales',
      manager: { value: 'm-2' },
      costCenter: 'CC-1',
    });
    expect(changedPaths).toEqual([
      'userName',
      'title',
      `${ENTERPRISE}:costCenter`,
      `${ENTERPRISE}:department`,
      `${ENTERPRISE}:manager`,
    ]);
  });

  it('takes path-less members that are dotted paths, full URN paths or extension objects', () => {
    const { resource } = patchUser(user(), {
      op: 'replace',
      value: {
        'name.familyName': 'Ruiz García',
        [`${ENTERPRISE}:division`]: 'EMEA',
        [ENTERPRISE]: { department: 'Ops', 'manager.value': 'm-3' },
      },
    });
    expect(resource.name).toMatchObject({ familyName: 'Ruiz García' });
    expect(resource[ENTERPRISE]).toMatchObject({
      division: 'EMEA',
      department: 'Ops',
      manager: { value: 'm-3' },
    });
  });

  it('adds to the extension whose URN is the path, and unsets it given null', () => {
    const value = { organization: 'ACME', Manager: { value: 'm-4' } };
    const { resource, changedPaths } = patchUser(user(), { op: 'add', path: ENTERPRISE, value });
    expect(resource[ENTERPRISE]).toEqual({
      employeeNumber: '42',
      department: 'R&D',
      organization: 'ACME',
      manager: { value: 'm-4' },
    });
    expect(changedPaths).toEqual([`${ENTERPRISE}:organization`, `${ENTERPRISE}:manager`]);
    const cleared = patchUser(user(), { op: 'replace', value: { [ENTERPRISE]: null } });
    expect(cleared.resource).not.toHaveProperty(ENTERPRISE);
    expect(cleared.changedPaths).toEqual([
      `${ENTERPRISE}:employeeNumber`,
      `${ENTERPRISE}:department`,
      `${ENTERPRISE}:manager`,
    ]);
  });

  it.each([
    'nickname.x',
    'unknownAttribute',
    'urn:ietf:params:scim:schemas:extension:other:2.0:User:x',
    `${ENTERPRISE}.department`,
    `${ENTERPRISE}:userName`,
    'name.unknown',
    'name[givenName eq "Ana"]',
    'emails[type eq "work"',
    'emails.value',
    'emails[type eq "work"].value.x',
    'title extra',
    '1title',
  ])('refuses the path %s as invalidPath', (path) => {
    scimErrorOf(() => patchUser(user(), { op: 'replace', path, value: 'x' }), 'invalidPath');
  });

  it('refuses unknown members in path-less values as invalidPath and unknown sub-attributes as invalidValue', () => {
    scimErrorOf(() => patchUser(user(), { op: 'replace', value: { shoeSize: 42 } }), 'invalidPath');
    scimErrorOf(
      () => patchUser(user(), { op: 'replace', path: 'name', value: { nick: 'x' } }),
      'invalidValue',
    );
    scimErrorOf(
      () => patchUser(user(), { op: 'add', path: 'emails', value: [{ mail: 'x' }] }),
      'invalidValue',
    );
  });
});

describe('SCIM PATCH values', () => {
  it('reads "True" and "False" in any case as booleans', () => {
    expect(patchUser(user(), { op: 'replace', path: 'active', value: 'False' }).resource.active).toBe(false);
    expect(patchUser(user(), { op: 'replace', path: 'active', value: 'fALSE' }).resource.active).toBe(false);
    const emails = [{ value: 'x@acme.test', primary: 'TRUE' }];
    expect(patchUser(user(), { op: 'replace', path: 'emails', value: emails }).resource.emails).toEqual([
      { value: 'x@acme.test', primary: true },
    ]);
  });

  it.each([
    ['active', 'yes'],
    ['active', 1],
    ['title', 42],
    ['title', { value: 'x' }],
    ['title', ['a', 'b']],
    ['name', 'Ana'],
    ['emails', [{ value: 1 }]],
    ['emails', [['nested']]],
  ])('refuses %s = %j as invalidValue', (path, value) => {
    scimErrorOf(() => patchUser(user(), { op: 'replace', path, value }), 'invalidValue');
  });

  it('takes a one-element array for a single value and a single element for a multi-valued attribute', () => {
    expect(patchUser(user(), { op: 'replace', path: 'title', value: ['CTO'] }).resource.title).toBe('CTO');
    const { resource } = patchUser(user(), { op: 'replace', path: 'phoneNumbers', value: { value: '1' } });
    expect(resource.phoneNumbers).toEqual([{ value: '1' }]);
  });

  it('keeps one primary value, moving the mark to the value an operation marks', () => {
    const { resource } = patchUser(user(), {
      op: 'add',
      path: 'emails',
      value: [{ value: 'ana@home.test', type: 'home', primary: true }],
    });
    expect(resource.emails).toEqual([
      { value: 'ana@acme.test', type: 'work' },
      { value: 'ana@home.test', type: 'home', primary: true },
    ]);
    const back = patchUser(resource, {
      op: 'replace',
      path: 'emails[type eq "work"].primary',
      value: 'True',
    });
    expect(back.resource.emails).toEqual([
      { value: 'ana@acme.test', type: 'work', primary: true },
      { value: 'ana@home.test', type: 'home' },
    ]);
    const two = [
      { value: 'a@x', primary: true },
      { value: 'b@x', primary: true },
    ];
    scimErrorOf(() => patchUser(user(), { op: 'replace', path: 'emails', value: two }), 'invalidValue');
  });

  it('drops the $ref and display of a value it replaces', () => {
    const withRef = patchUser(user(), {
      op: 'replace',
      path: 'manager',
      value: { value: 'm-1', $ref: 'https://x/Users/m-1', displayName: 'Boss' },
    });
    const manager = (resource: Record<string, unknown>) =>
      (resource[ENTERPRISE] as { manager?: unknown }).manager;
    expect(manager(withRef.resource)).toEqual({ value: 'm-1', $ref: 'https://x/Users/m-1' });
    const next = patchUser(withRef.resource, { op: 'replace', path: 'manager', value: 'm-2' });
    expect(manager(next.resource)).toEqual({ value: 'm-2' });
  });
});
