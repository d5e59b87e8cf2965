import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../server/scim/patch/apply-patch.js';
import { group, PATCH_OP, user } from './scim-patch-fixtures.js';

/** The PATCH bodies Okta sends, as its SCIM 2.0 reference shows them. */
const patchedUser = (operations: unknown[]) =>
  applyPatch(user(), { schemas: [PATCH_OP], Operations: operations }, 'User');
const patchedGroup = (operations: unknown[]) =>
  applyPatch(group(), { schemas: [PATCH_OP], Operations: operations }, 'Group');

describe('Okta PATCH requests', () => {
  it('deactivates and reactivates a user with a path-less replace', () => {
    const off = patchedUser([{ op: 'replace', value: { active: false } }]);
    expect(off.resource.active).toBe(false);
    expect(off.changedPaths).toEqual(['active']);
    const on = applyPatch(
      off.resource,
      { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] },
      'User',
    );
    expect(on.resource).toEqual(user());
  });

  it('renames a group with its id repeated in the value', () => {
    const request = {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'replace', value: { id: 'abf4dd94-a4c0-4f67-89c9-76b03340cb9b', displayName: 'Test SCIMv2' } },
      ],
    };
    const { resource, changedPaths } = applyPatch(group(), request, 'Group', {
      id: 'abf4dd94-a4c0-4f67-89c9-76b03340cb9b',
    });
    expect(resource.displayName).toBe('Test SCIMv2');
    expect(resource).not.toHaveProperty('id');
    expect(changedPaths).toEqual(['displayName']);
  });

  it('adds members with display and removes one by filter', () => {
    const { resource, changedPaths } = patchedGroup([
      { op: 'add', path: 'members', value: [{ value: '00u1', display: 'test.user@okta.local' }] },
      { op: 'remove', path: 'members[value eq "u-2"]' },
    ]);
    expect(resource.members).toEqual([
      { value: 'u-1', display: 'Ana' },
      { value: '00u1', display: 'test.user@okta.local' },
    ]);
    expect(changedPaths).toEqual(['members']);
  });

  it('replaces all members', () => {
    const { resource } = patchedGroup([{ op: 'replace', path: 'members', value: [{ value: 'u-9' }] }]);
    expect(resource.members).toEqual([{ value: 'u-9' }]);
    expect(patchedGroup([{ op: 'replace', path: 'members', value: [] }]).resource).not.toHaveProperty(
      'members',
    );
  });
});
