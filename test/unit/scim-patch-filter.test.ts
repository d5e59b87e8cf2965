import { describe, expect, it } from 'vitest';
import { equalityConstraints, matchesFilter } from '../../server/scim/patch/filter-match.js';
import { parseValueFilter } from '../../server/scim/patch/value-filter.js';
import type { ScimAttribute } from '../../server/scim/schema/scim-attributes.js';
import { USER_SCHEMA } from '../../server/scim/schema/scim-attributes.js';
import { group, patchGroup, patchUser, scimErrorOf, user } from './scim-patch-fixtures.js';

const emails = USER_SCHEMA.attributes.find((a) => a.name === 'emails') as ScimAttribute;
const plain = (caseExact: boolean): ScimAttribute => ({
  ...emails,
  type: 'string',
  caseExact,
  subAttributes: undefined,
});
const matches = (filter: string, element: unknown, owner = emails) =>
  matchesFilter(parseValueFilter(filter, owner), element);

describe('SCIM PATCH value filters', () => {
  const work = { value: 'Ana@Acme.test', type: 'work', primary: true };

  it.each([
    ['type eq "work"', true],
    ['TYPE EQ "WORK"', true],
    ['type ne "work"', false],
    ['value co "acme"', true],
    ['value sw "ana@"', true],
    ['value ew ".TEST"', true],
    ['value gt "a"', true],
    ['value lt "a"', false],
    ['value ge "ana@acme.test"', true],
    ['value le "ana@acme.test"', true],
    ['display pr', false],
    ['primary pr', true],
    ['primary eq true', true],
    ['primary eq "True"', true],
    ['primary ne false', true],
    ['display eq null', true],
    ['display ne "x"', true],
    ['display eq "x"', false],
    ['type eq "work" and primary eq false', false],
    ['type eq "home" or primary eq true', true],
    ['not (type eq "home")', true],
    ['(type eq "home" or type eq "work") and value co "@"', true],
    ['type eq "home" or type eq "other" and primary eq true', false],
    ['value eq "Ana@Acme.test\\u0021"', false],
  ])('%s is %s', (filter, expected) => {
    expect(matches(filter, work)).toBe(expected);
  });

  it('compares caseExact values exactly and plain multi-valued values through "value"', () => {
    expect(matches('value eq "A"', 'a', plain(false))).toBe(true);
    expect(matches('value eq "A"', 'a', plain(true))).toBe(false);
    expect(matches('value sw "A"', 'Ab', plain(true))).toBe(true);
  });

  it.each([
    '',
    'type',
    'type eq',
    'type eq "work',
    'type like "work"',
    'shoe eq "x"',
    'type eq "work" extra',
    '(type eq "work"',
    'not type eq "work"',
    'primary gt true',
    'primary eq "maybe"',
    'type eq 3',
    'value co null',
    'type eq "\\x"',
  ])('refuses %j as invalidFilter', (filter) => {
    scimErrorOf(() => parseValueFilter(filter, emails), 'invalidFilter');
  });

  it('finds the sub-attribute values an eq-only filter pins down', () => {
    const pinned = (filter: string) =>
      equalityConstraints(parseValueFilter(filter, emails))?.map(({ attribute, value }) => [
        attribute.name,
        value,
      ]);
    expect(pinned('type eq "work"')).toEqual([['type', 'work']]);
    expect(pinned('type eq "work" and primary eq "true"')).toEqual([
      ['type', 'work'],
      ['primary', true],
    ]);
    for (const filter of [
      'type ne "work"',
      'type eq "a" or type eq "b"',
      'type eq "a" and type eq "b"',
      'type pr',
    ]) {
      expect(pinned(filter)).toBeUndefined();
    }
  });
});

describe('SCIM PATCH paths with value filters', () => {
  it('replaces the sub-attribute of the matching values only', () => {
    const { resource, changedPaths } = patchUser(user(), {
      op: 'replace',
      path: 'addresses[type eq "work"].streetAddress',
      value: 'Calle 2',
    });
    expect(resource.addresses).toEqual([
      { type: 'work', streetAddress: 'Calle 2', locality: 'Madrid', country: 'ES' },
    ]);
    expect(changedPaths).toEqual(['addresses']);
  });

  it('merges a value into the matching values, keeping what it leaves out', () => {
    const { resource } = patchUser(user(), {
      op: 'replace',
      path: 'emails[type eq "work"]',
      value: { value: 'n@x' },
    });
    expect(resource.emails).toEqual([{ value: 'n@x', type: 'work', primary: true }]);
  });

  it('creates the value an eq filter describes when none matches, for replace and add', () => {
    const mobile = patchUser(user(), {
      op: 'replace',
      path: 'phoneNumbers[type eq "fax"].value',
      value: '+34 900',
    });
    expect(mobile.resource.phoneNumbers).toEqual([
      { value: '+34 600', type: 'mobile' },
      { type: 'fax', value: '+34 900' },
    ]);
    const home = patchUser(user(), {
      op: 'add',
      path: 'addresses[type eq "home"]',
      value: { locality: 'Sevilla' },
    });
    expect(home.resource.addresses).toContainEqual({ type: 'home', locality: 'Sevilla' });
    const email = patchUser(user(), {
      op: 'replace',
      path: 'emails[type eq "home"]',
      value: { value: 'h@x' },
    });
    expect(email.resource.emails).toContainEqual({ type: 'home', value: 'h@x' });
    const both = patchUser(user(), {
      op: 'replace',
      path: 'phoneNumbers[type eq "work" and primary eq true].value',
      value: '+34 911',
    });
    expect(both.resource.phoneNumbers).toContainEqual({ type: 'work', primary: true, value: '+34 911' });
  });

  it('answers noTarget when a replace filter matches nothing and cannot describe a new value', () => {
    for (const path of [
      'emails[type ne "work"]',
      'emails[type pr and value sw "z"]',
      'emails[not (type eq "work")]',
    ]) {
      scimErrorOf(() => patchUser(user(), { op: 'replace', path, value: { value: 'z@x' } }), 'noTarget');
    }
    const sub = { op: 'replace', path: 'emails[value co "nobody"].value', value: 'z@x' };
    scimErrorOf(() => patchUser(user(), sub), 'noTarget');
    scimErrorOf(
      () => patchUser(user(), { op: 'replace', path: 'schemas[value eq "urn:x"]', value: 'urn:y' }),
      'noTarget',
    );
  });

  it('changes nothing when clearing a sub-attribute of values that do not exist', () => {
    const { resource, changedPaths } = patchUser(user(), {
      op: 'replace',
      path: 'emails[type eq "home"].value',
      value: '',
    });
    expect(resource).toEqual(user());
    expect(changedPaths).toEqual([]);
  });

  it('removes matching values, and nothing when none matches (RFC 7644 3.5.2.2 asks no noTarget)', () => {
    const removed = patchGroup(group(), {
      op: 'remove',
      path: 'members[value eq "u-2" or display eq "ana"]',
    });
    expect(removed.resource).not.toHaveProperty('members');
    const none = patchGroup(group(), { op: 'remove', path: 'members[value eq "u-404"]' });
    expect(none.resource).toEqual(group());
    expect(none.changedPaths).toEqual([]);
  });

  it('removes a value whose identifying sub-attribute is removed or cleared', () => {
    const removed = patchUser(user(), { op: 'remove', path: 'emails[type eq "work"].value' });
    expect(removed.resource).not.toHaveProperty('emails');
    const cleared = patchUser(user(), {
      op: 'replace',
      path: 'phoneNumbers[type eq "mobile"].value',
      value: null,
    });
    expect(cleared.resource).not.toHaveProperty('phoneNumbers');
    const gone = patchUser(user(), { op: 'replace', path: 'emails[type eq "work"]', value: null });
    expect(gone.resource).not.toHaveProperty('emails');
  });

  it('reads brackets and escaped quotes inside filter strings', () => {
    const odd = { ...user(), emails: [{ value: 'a]"b@x', type: 'work' }] };
    const { resource } = patchUser(odd, {
      op: 'replace',
      path: 'emails[value eq "a]\\"b@x"].type',
      value: 'home',
    });
    expect(resource.emails).toEqual([{ value: 'a]"b@x', type: 'home' }]);
  });
});
