import { expect } from 'vitest';
import { applyPatch, type PatchResult } from '../../server/scim/patch/apply-patch.js';
import { ScimError, type ScimType } from '../../server/scim/scim-error.js';

/** Resources and helpers the SCIM PATCH tests share. */

export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export function user(): Record<string, unknown> {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
    userName: 'ana@acme.test',
    externalId: 'e-1',
    active: true,
    displayName: 'Ana Ruiz',
    name: { givenName: 'Ana', familyName: 'Ruiz', formatted: 'Ana Ruiz' },
    emails: [{ value: 'ana@acme.test', type: 'work', primary: true }],
    phoneNumbers: [{ value: '+34 600', type: 'mobile' }],
    addresses: [{ type: 'work', streetAddress: 'Calle 1', locality: 'Madrid', country: 'ES' }],
    title: 'Engineer',
    [ENTERPRISE]: { employeeNumber: '42', department: 'R&D', manager: { value: 'boss-id' } },
  };
}

export function group(): Record<string, unknown> {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName: 'Admins',
    externalId: 'g-1',
    members: [
      { value: 'u-1', display: 'Ana' },
      { value: 'u-2', display: 'Ben' },
    ],
  };
}

export function body(...operations: unknown[]) {
  return { schemas: [PATCH_OP], Operations: operations };
}

export function patchUser(resource: Record<string, unknown>, ...operations: unknown[]): PatchResult {
  return applyPatch(resource, body(...operations), 'User');
}

export function patchGroup(resource: Record<string, unknown>, ...operations: unknown[]): PatchResult {
  return applyPatch(resource, body(...operations), 'Group');
}

/** Runs `run`, expecting a 400 ScimError of the given scimType, and returns it. */
export function scimErrorOf(run: () => unknown, scimType: ScimType): ScimError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ScimError);
    expect((e as ScimError).status).toBe(400);
    expect((e as ScimError).scimType).toBe(scimType);
    return e as ScimError;
  }
  throw new Error(`expected a ScimError ${scimType}, but nothing was thrown`);
}
