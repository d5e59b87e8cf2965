import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../server/scim/filter/filter-ast.js';
import { parseAttrPath, parseFilter } from '../../server/scim/filter/index.js';
import { ScimError } from '../../server/scim/scim-error.js';

const path = (text: string) => parseAttrPath(text);
const cmp = (p: string, op: string, value: unknown) => ({ kind: 'compare', path: path(p), op, value });
const pr = (p: string) => ({ kind: 'present', path: path(p) });

/** The error parseFilter throws for `text`, failing the test when it throws none. */
function failure(text: string): ScimError {
  try {
    parseFilter(text);
  } catch (e) {
    if (e instanceof ScimError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseFilter: RFC 7644 section 3.4.2.2', () => {
  // Every example filter listed in the RFC.
  const examples = [
    'userName eq "bjensen"',
    `name.familyName co "O'Malley"`,
    'userName sw "J"',
    'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
    'title pr',
    'meta.lastModified gt "2011-05-13T04:42:34Z"',
    'meta.lastModified ge "2011-05-13T04:42:34Z"',
    'meta.lastModified lt "2011-05-13T04:42:34Z"',
    'meta.lastModified le "2011-05-13T04:42:34Z"',
    'title pr and userType eq "Employee"',
    'title pr or userType eq "Intern"',
    'schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"',
    'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
    'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
    'userType eq "Employee" and (emails.type eq "work")',
    'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
    'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
  ];
  it.each(examples)('parses %s', (text) => {
    expect(() => parseFilter(text)).not.toThrow();
  });

  it('builds the tree of each kind of expression', () => {
    expect(parseFilter('userName eq "bjensen"')).toEqual(cmp('userName', 'eq', 'bjensen'));
    expect(parseFilter('title pr')).toEqual(pr('title'));
    expect(parseFilter(examples[3] as string)).toEqual({
      kind: 'compare',
      path: {
        uri: 'urn:ietf:params:scim:schemas:core:2.0:User',
        attr: 'userName',
        text: examples[3]?.split(' ')[0],
      },
      op: 'sw',
      value: 'J',
    });
    expect(parseFilter(examples[12] as string)).toEqual({
      kind: 'and',
      filters: [
        cmp('userType', 'eq', 'Employee'),
        {
          kind: 'or',
          filters: [cmp('emails', 'co', 'example.com'), cmp('emails.value', 'co', 'example.org')],
        },
      ],
    });
    expect(parseFilter(examples[13] as string)).toMatchObject({
      kind: 'and',
      filters: [{ op: 'ne' }, { kind: 'not', filter: { kind: 'or' } }],
    });
  });

  it('reads attribute paths with URNs, sub-attributes and $ref', () => {
    expect(path('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value')).toEqual({
      uri: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      attr: 'manager',
      subAttr: 'value',
      text: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value',
    });
    expect(path('name.givenName')).toEqual({ attr: 'name', subAttr: 'givenName', text: 'name.givenName' });
    expect(path('members.$ref')).toEqual({ attr: 'members', subAttr: '$ref', text: 'members.$ref' });
    expect(() => path('name.givenName.x')).toThrow(/not an attribute path/);
    expect(() => path('userName eq')).toThrow(/not an attribute path/);
  });
});

describe('parseFilter: precedence and grouping', () => {
  const a = pr('a');
  const b = pr('b');
  const c = pr('c');

  it('binds and tighter than or', () => {
    expect(parseFilter('a pr or b pr and c pr')).toEqual({
      kind: 'or',
      filters: [a, { kind: 'and', filters: [b, c] }],
    });
    expect(parseFilter('a pr and b pr or c pr')).toEqual({
      kind: 'or',
      filters: [{ kind: 'and', filters: [a, b] }, c],
    });
  });

  it('keeps a chain of one operator as one node', () => {
    expect(parseFilter('a pr or b pr or c pr')).toEqual({ kind: 'or', filters: [a, b, c] });
  });

  it('lets parentheses override precedence', () => {
    expect(parseFilter('(a pr or b pr) and c pr')).toEqual({
      kind: 'and',
      filters: [{ kind: 'or', filters: [a, b] }, c],
    });
    expect(parseFilter('((a pr))')).toEqual(a);
  });

  it('applies not to a parenthesised filter, with or without a space', () => {
    const expected: FilterNode = { kind: 'not', filter: { kind: 'or', filters: [a, b] } } as FilterNode;
    expect(parseFilter('not (a pr or b pr)')).toEqual(expected);
    expect(parseFilter('not(a pr or b pr)')).toEqual(expected);
    expect(parseFilter('not (not (a pr)) and b pr')).toEqual({
      kind: 'and',
      filters: [{ kind: 'not', filter: { kind: 'not', filter: a } }, b],
    });
  });

  it('reads operators and keywords in any case, keeping attribute names as written', () => {
    expect(parseFilter('USERNAME EQ "x" AND Title PR OR NOT (a Pr)')).toEqual({
      kind: 'or',
      filters: [
        { kind: 'and', filters: [cmp('USERNAME', 'eq', 'x'), pr('Title')] },
        { kind: 'not', filter: a },
      ],
    });
  });

  it('accepts tabs and newlines as spaces', () => {
    expect(parseFilter('\ta pr\n\tor\r\nb pr ')).toEqual({ kind: 'or', filters: [a, b] });
  });
});

describe('parseFilter: value paths', () => {
  it('parses a value filter on a multi-valued attribute', () => {
    expect(parseFilter('emails[type eq "work" and value co "@x"]')).toEqual({
      kind: 'valuePath',
      path: path('emails'),
      filter: { kind: 'and', filters: [cmp('type', 'eq', 'work'), cmp('value', 'co', '@x')] },
    });
  });

  it('ands a trailing sub-attribute comparison into the value filter', () => {
    expect(parseFilter('emails[type eq "work"].value eq "a@x"')).toEqual({
      kind: 'valuePath',
      path: path('emails'),
      filter: { kind: 'and', filters: [cmp('type', 'eq', 'work'), cmp('value', 'eq', 'a@x')] },
    });
    expect(parseFilter('emails[type eq "work"].value pr')).toMatchObject({
      filter: { filters: [{}, pr('value')] },
    });
  });

  it('allows not, grouping and a URN prefix around value filters', () => {
    expect(parseFilter('emails[not (type eq "work") and (primary eq true or display pr)]')).toMatchObject({
      kind: 'valuePath',
      filter: { kind: 'and', filters: [{ kind: 'not' }, { kind: 'or' }] },
    });
    expect(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:emails[value sw "a"]')).toMatchObject({
      path: { uri: 'urn:ietf:params:scim:schemas:core:2.0:User', attr: 'emails' },
    });
    expect(parseFilter('members[$ref pr]')).toMatchObject({ filter: pr('$ref') });
  });
});

describe('parseFilter: literals', () => {
  const literalValue = (literal: string) => (parseFilter(`x eq ${literal}`) as { value: unknown }).value;

  it('reads JSON numbers, booleans and null', () => {
    expect(literalValue('42')).toBe(42);
    expect(literalValue('-1.5e3')).toBe(-1500);
    expect(literalValue('0.25')).toBe(0.25);
    expect(literalValue('true')).toBe(true);
    expect(literalValue('False')).toBe(false);
    expect(literalValue('null')).toBeNull();
  });

  it('reads JSON string escapes', () => {
    expect(literalValue(String.raw`"a\"b\\c\/d"`)).toBe('a"b\\c/d');
    expect(literalValue(String.raw`"\b\f\n\r\t"`)).toBe('\b\f\n\r\t');
    expect(literalValue(String.raw`"caf\u00e9 \ud83d\ude00"`)).toBe('café 😀');
    expect(literalValue(`"O'Malley [x] (y) and or not"`)).toBe("O'Malley [x] (y) and or not");
    expect(literalValue('""')).toBe('');
  });

  it('keeps dateTime values as strings', () => {
    expect(literalValue('"2011-05-13T04:42:34.123+02:00"')).toBe('2011-05-13T04:42:34.123+02:00');
  });
});

describe('parseFilter: malformed filters are 400 invalidFilter, saying what and where', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['userName', /expected an operator .* after 'userName' at position 9, found the end/],
    ['userName eq', /expected a value .* after 'eq' at position 12, found the end/],
    ['userName = "x"', /unexpected character '=' at position 10/],
    ['userName equals "x"', /expected an operator .* at position 10, found 'equals'/],
    ['userName eq "x" and', /expected an attribute, '\(' or 'not' at position 20, found the end/],
    ['userName eq "x" or or title pr', /expected an operator .* after 'or' at position 23, found 'title'/],
    ['userName eq "x" userName eq "y"', /expected 'and', 'or' or the end at position 17, found 'userName'/],
    ['title pr "x"', /expected 'and', 'or' or the end at position 10, found "x"/],
    ['(userName eq "x"', /expected '\)' to close the '\(' at position 1, found the end/],
    ['userName eq "x")', /expected 'and', 'or' or the end at position 16, found '\)'/],
    ['()', /expected an attribute, '\(' or 'not' at position 2, found '\)'/],
    ['not userName eq "x"', /'not' at position 1 must be followed by a filter in parentheses/],
    ['not (title pr', /expected '\)' to close the '\(' at position 5/],
    ['emails[type eq "work"', /expected '\]' to close the '\[' at position 7, found the end/],
    ['emails[type eq "work")', /expected '\]' to close the '\[' at position 7, found '\)'/],
    ['emails[type eq "work"]]', /at position 23, found '\]'/],
    ['emails[type[value eq "x"] eq "y"]', /value filters cannot be nested: '\[' at position 12/],
    ['emails[emails.type eq "x"]', /inside emails\[…\] name a sub-attribute of emails/],
    ['emails[urn:x:y:value eq "x"]', /inside emails\[…\] name a sub-attribute/],
    ['name.givenName[value eq "x"]', /'name.givenName' at position 1 has a sub-attribute/],
    ['emails[type eq "work"].', /expected a sub-attribute name after '.' at position 23, found the end/],
    ['emails[type eq "work"].value', /expected an operator .* after 'value' at position 29, found the end/],
    ['emails[type eq "work"].value.x eq "y"', /expected a sub-attribute name .* found 'value.x'/],
    ['name.givenName.x eq "a"', /'name.givenName.x' at position 1 is not an attribute path/],
    ['urn:foo: eq "a"', /'urn:foo:' at position 1 is not an attribute path/],
    ['userName eq "open', /the string at position 13 is not closed/],
    [String.raw`userName eq "a\qb"`, /invalid escape '\\q' in the string at position 13/],
    [String.raw`userName eq "\u12"`, /invalid escape '\\u'/],
    [String.raw`userName eq "a\u0000b"`, /contains \\u0000/],
    ['userName eq "a\nb"', /unescaped control character in the string at position 13/],
  ];
  it.each(cases)('rejects %j', (text, detail) => {
    const e = failure(text);
    expect(e).toMatchObject({ status: 400, scimType: 'invalidFilter' });
    expect(e.detail).toMatch(detail);
  });
});

describe('parseFilter: unquoted values (as Microsoft’s SCIM test collection sends them)', () => {
  it.each([
    ['userName eq bjensen', 'bjensen'],
    ["userName eq 'bjensen'", "'bjensen'"],
    ['x eq 01', '01'],
    ['x eq 1e', '1e'],
    ['meta.created gt 2015-10-10T14:38:21.8617979-07:00', '2015-10-10T14:38:21.8617979-07:00'],
  ])('reads %j with the bare value as a string', (text, value) => {
    expect(parseFilter(text)).toMatchObject({ kind: 'compare', value });
  });

  it('still reads bare keywords and numbers as such, and stops a bare value at ) and whitespace', () => {
    expect(parseFilter('active eq True')).toMatchObject({ value: true });
    expect(parseFilter('x eq 12')).toMatchObject({ value: 12 });
    expect(parseFilter('(emails.value co example.com)')).toMatchObject({
      kind: 'compare',
      value: 'example.com',
    });
  });
});

describe('parseFilter: limits', () => {
  it('refuses filters over 2000 characters', () => {
    expect(() => parseFilter(`userName eq "${'x'.repeat(1986)}"`)).not.toThrow();
    expect(failure(`userName eq "${'x'.repeat(1987)}"`).detail).toMatch(/2001 characters long; at most 2000/);
  });

  it('refuses more than 200 expressions', () => {
    const chain = (n: number) => Array.from({ length: n }, () => 'a pr').join(' or ');
    expect(() => parseFilter(chain(199))).not.toThrow();
    expect(failure(chain(200))).toMatchObject({
      scimType: 'invalidFilter',
      detail: expect.stringMatching(/200/),
    });
  });

  it('refuses nesting deeper than 32 levels', () => {
    const nested = (n: number) => `${'('.repeat(n)}a pr${')'.repeat(n)}`;
    expect(() => parseFilter(nested(32))).not.toThrow();
    expect(failure(nested(33)).detail).toMatch(/deeper than 32 levels at position 33/);
    expect(failure(`${'not ('.repeat(33)}a pr${')'.repeat(33)}`).scimType).toBe('invalidFilter');
  });
});
