import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_LIMITS, filterToSql, parseFilter } from '../../server/scim/filter/index.js';
import { ScimError } from '../../server/scim/scim-error.js';

/**
 * Properties of the SCIM filter parser and its SQL translation (issue #14): any text either parses or
 * is refused as a 400 invalidFilter, generated valid filters parse, and every compared value reaches
 * PostgreSQL only as a bound parameter, never spliced into the SQL text.
 */

/** Runs `run`; anything thrown other than a 400 invalidFilter ScimError fails the property. */
function parsesOrRefuses(run: () => unknown): void {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ScimError);
    expect((e as ScimError).scimType).toBe('invalidFilter');
    expect((e as ScimError).status).toBe(400);
  }
}

// Known attributes of the User schema, so the translator reaches its comparison SQL rather than `false`.
const stringPath = fc.constantFrom('userName', 'displayName', 'name.givenName', 'title', 'emails.value');
const op = fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le');
// Hostile values: arbitrary text around an SQL-injection marker with a quote (NUL and `?` excluded:
// the lexer refuses NUL, and a `?` in a value is fine but makes the placeholder count below ambiguous).
const MARKER = `'; drop table users; --`; // no LIKE metacharacters, so sw/co/ew keep it whole
const text = fc.string({ maxLength: 8 }).filter((s) => !s.includes('\u0000') && !s.includes('?'));
const hostile = fc.tuple(text, text).map(([a, b]) => `${a}${MARKER}${b}`);
const compare = fc.tuple(stringPath, op, hostile).map(([p, o, v]) => `${p} ${o} ${JSON.stringify(v)}`);
const present = stringPath.map((p) => `${p} pr`);
const valuePath = fc
  .tuple(fc.constantFrom('type', 'value', 'display'), op, hostile)
  .map(([s, o, v]) => `emails[${s} ${o} ${JSON.stringify(v)}]`);

/** Valid filters of bounded depth, combining and/or/not/parentheses over the leaves above. */
const filter = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    compare,
    present,
    valuePath,
    fc.tuple(tie('node'), fc.constantFrom('and', 'or'), tie('node')).map(([a, k, b]) => `${a} ${k} ${b}`),
    tie('node').map((f) => `(${f})`),
    tie('node').map((f) => `not (${f})`),
  ),
})).node;

describe('SCIM filter parser properties', () => {
  it('arbitrary text parses or is refused with invalidFilter, never another error', () => {
    const any = fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(...'()[]" .\\eqandornotpr01-') }));
    fc.assert(
      fc.property(any, (t) => parsesOrRefuses(() => parseFilter(t))),
      { numRuns: 2000 },
    );
  });

  it('generated valid filters parse and translate with every value bound, not inlined', () => {
    fc.assert(
      fc.property(filter, (text) => {
        if (text.length > FILTER_LIMITS.maxLength) {
          // Over the documented length limit: refused, not parsed.
          expect(() => parseFilter(text)).toThrow(/at most/);
          return;
        }
        const ast = parseFilter(text);
        const { sql, params } = filterToSql(ast, 'User', 'u');
        // Every compared value is in the parameter list, once, and none of it is in the SQL text.
        const bound = params.filter((p) => typeof p === 'string' && p.includes(MARKER));
        expect(bound.length).toBe(text.split(MARKER).length - 1);
        expect(sql).not.toContain('drop table');
        expect(sql.split('?').length - 1).toBe(params.length);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['parentheses', `${'('.repeat(10_000)}userName pr${')'.repeat(10_000)}`],
    ['not (', `${'not ('.repeat(10_000)}userName pr${')'.repeat(10_000)}`],
    ['value filters', `${'emails['.repeat(10_000)}type pr${']'.repeat(10_000)}`],
  ])('nesting of %s 10,000 deep is refused with invalidFilter', (_, text) => {
    expect(() => parseFilter(text)).toThrow(ScimError);
    parsesOrRefuses(() => parseFilter(text));
  });

  it('nesting just past the depth limit is refused, at the limit accepted', () => {
    const nested = (n: number) => `${'not ('.repeat(n)}userName pr${')'.repeat(n)}`;
    expect(() => parseFilter(nested(FILTER_LIMITS.maxDepth))).not.toThrow();
    expect(() => parseFilter(nested(FILTER_LIMITS.maxDepth + 1))).toThrow(/nests deeper than/);
  });

  it('inputs of 100,000 characters are refused with invalidFilter, not a RangeError', () => {
    for (const t of [
      `userName eq "${'x'.repeat(100_000)}"`,
      'userName pr or '.repeat(7_000),
      `${'('.repeat(100_000)}`,
      'a'.repeat(100_000),
    ]) {
      expect(() => parseFilter(t)).toThrow(ScimError);
      parsesOrRefuses(() => parseFilter(t));
    }
  });
});
