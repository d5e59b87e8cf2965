import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../server/scim/patch/apply-patch.js';
import { ScimError } from '../../server/scim/scim-error.js';
import { body, ENTERPRISE, group, user } from './scim-patch-fixtures.js';

/**
 * Properties of the SCIM PATCH engine (issue #14): for any operation list applyPatch returns a
 * resource or throws a ScimError (never a TypeError or RangeError), never changes its input (so a
 * refused list leaves the stored resource as it was), and a replace reads back as written.
 */

/** Applies `operations`; returns the result, or undefined after checking the error is a ScimError. */
function patchOrRefuse(resource: Record<string, unknown>, operations: unknown[], type: 'User' | 'Group') {
  try {
    return applyPatch(resource, body(...operations), type).resource;
  } catch (e) {
    if (!(e instanceof ScimError)) throw e; // a TypeError or RangeError is the bug this hunts
    expect(e.status).toBe(400);
    return undefined;
  }
}

// Paths the engine supports, Entra's and Okta's forms among them, plus unknown and malformed ones.
const path = fc.oneof(
  fc.constantFrom(
    'active',
    'displayName',
    'userName',
    'name.givenName',
    'name',
    'emails',
    'title',
    'nickName',
    'emails[type eq "work"].value',
    'emails[type eq "work"]',
    'phoneNumbers[type eq "fax"].value',
    'members',
    'members[value eq "u-1"]',
    `${ENTERPRISE}:manager`,
    `${ENTERPRISE}:employeeNumber`,
    'id',
    'meta.created',
    'schemas',
    'Emails[Type EQ "work"].Value',
    'emails[',
    'a.b.c',
    'x[y eq 1]',
  ),
  fc.string({ maxLength: 20 }),
);
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('True', 'False', 'boss-2', [{ value: 'u-3' }], { value: 'x@acme.test', type: 'work' }),
  fc.constantFrom(
    { displayName: 'Okta' },
    { 'name.givenName': 'B' },
    { [`${ENTERPRISE}:department`]: 'Ops' },
  ),
);
const operation = fc.record(
  { op: fc.constantFrom('add', 'replace', 'remove', 'Add', 'Replace', 'Remove'), path, value },
  { requiredKeys: ['op'] },
);
const operations = fc.array(operation, { minLength: 1, maxLength: 6 });

describe('SCIM PATCH engine properties', () => {
  it.each([
    ['User', user],
    ['Group', group],
  ] as const)('%s: a resource or a ScimError, and the input is never changed', (type, fixture) => {
    fc.assert(
      fc.property(operations, (ops) => {
        const resource = fixture();
        const before = structuredClone(resource);
        patchOrRefuse(resource, ops, type);
        // A refused list must leave the stored resource as it was; a successful one returns a copy.
        expect(resource).toEqual(before);
      }),
      { numRuns: 500 },
    );
  });

  it('a list whose last operation fails changes nothing (all or none)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), (name) => {
        const resource = user();
        const before = structuredClone(resource);
        const ops = [
          { op: 'replace', path: 'displayName', value: name },
          { op: 'replace', path: 'id', value: 'other' }, // id is read-only: this one must fail
        ];
        expect(patchOrRefuse(resource, ops, 'User')).toBeUndefined();
        expect(resource).toEqual(before);
      }),
      { numRuns: 100 },
    );
  });

  it('replace then read back gives the value written', () => {
    const printable = fc
      .string({ minLength: 1, maxLength: 40 })
      .filter((s) => /^[\x20-\x7e]*\S[\x20-\x7e]*$/.test(s));
    fc.assert(
      fc.property(
        fc.constantFrom('displayName', 'title', 'nickName', 'name.familyName'),
        printable,
        (p, v) => {
          const { resource } = applyPatch(user(), body({ op: 'replace', path: p, value: v }), 'User');
          const read = p.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], resource);
          expect(read).toBe(v);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('values nested 10,000 deep are refused with a ScimError, not a stack overflow', () => {
    let object: unknown = 'x';
    let array: unknown = 'x';
    for (let i = 0; i < 10_000; i++) {
      object = { a: object };
      array = [array];
    }
    const targets = ['displayName', 'name', 'emails', 'active', `${ENTERPRISE}:manager`, undefined];
    for (const deep of [object, array]) {
      for (const p of targets) {
        expect(patchOrRefuse(user(), [{ op: 'add', path: p, value: deep }], 'User')).toBeUndefined();
      }
      expect(
        patchOrRefuse(user(), [{ op: 'replace', value: { displayName: deep } }], 'User'),
      ).toBeUndefined();
    }
  });

  it('a long array of values is handled or refused without crashing', () => {
    const members = Array.from({ length: 2_000 }, (_, i) => ({ value: `m-${i}` }));
    const result = patchOrRefuse(group(), [{ op: 'add', path: 'members', value: members }], 'Group');
    if (result) expect((result.members as unknown[]).length).toBe(2_002);
  });
});
