import { describe, expect, it } from 'vitest';
import { listParams } from '../../server/scim/list-params.js';
import { ScimError } from '../../server/scim/scim-error.js';

/** How `startIndex` and `count` are read: as integers by their digits, held to safe integers. */
describe('SCIM list parameters', () => {
  it.each([
    ['1', 1],
    ['+5', 5],
    ['1.0', 1],
    ['10e-1', 1],
    ['2.50e1', 25],
    ['-0', 1],
    ['0', 1],
    ['99999999999999999999', Number.MAX_SAFE_INTEGER],
    ['1e99', Number.MAX_SAFE_INTEGER],
    ['1E400', Number.MAX_SAFE_INTEGER],
    ['-1e400', 1],
  ])('startIndex=%s is %d', (startIndex, expected) => {
    expect(listParams({ startIndex }).startIndex).toBe(expected);
  });

  it.each([
    ['1e99', 200],
    ['-1e99', 0],
    ['7', 7],
  ])('count=%s is %d', (count, expected) => {
    expect(listParams({ count }).count).toBe(expected);
  });

  it.each(['1.5', '1e-400', '0x10', ' 5', '5 ', 'Infinity', 'NaN', '1e', '.5', '5.', '--1'])(
    'startIndex=%j is a 400 invalidValue',
    (startIndex) => {
      let thrown: unknown;
      try {
        listParams({ startIndex });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ScimError);
      expect(thrown).toMatchObject({ status: 400, scimType: 'invalidValue' });
    },
  );

  it('refuses a parameter given as an object', () => {
    expect(() => listParams({ count: { a: '1' } })).toThrow(ScimError);
    expect(() => listParams({ sortOrder: { a: 'b' } })).toThrow(ScimError);
  });
});
