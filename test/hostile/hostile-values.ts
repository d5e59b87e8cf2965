import { randomUUID } from 'node:crypto';

/**
 * Path segments of every shape, as they appear on the wire (already percent-encoded): not uuids,
 * almost uuids, unknown uuids, encodings that do not decode, control characters, injections,
 * traversal, very long ones.
 */
export const ID_SHAPES = [
  'x',
  'not-a-uuid',
  '0',
  '-1',
  '1e309',
  'null',
  '%5B%5D',
  '%7B%7D',
  '00000000-0000-0000-0000-000000000000',
  randomUUID().toUpperCase(),
  `${randomUUID()}0`,
  randomUUID().slice(0, 35),
  randomUUID().replaceAll('-', ''),
  'a%00b',
  '%00',
  '%01',
  '%7F',
  'a%0D%0Ab',
  '%E0%A4%A',
  '%FF',
  '%C0%AF',
  '%ED%A0%80',
  '%F0%9F%92%A9',
  "'%20or%20'1'='1",
  '1%3B%20drop%20table%20tenant',
  '..%2F..%2Fetc%2Fpasswd',
  '%2E%2E',
  '*',
  '%25',
  '%',
  'a'.repeat(300),
  'b'.repeat(6000),
];

/** Values of the wrong type, or of the right type and hostile, for any body field. */
export const BAD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  '',
  '   ',
  [],
  {},
  [[[[]]]],
  { $ne: 1 },
  'a\u0000b',
  'a\u001bb',
  '\ud800',
  '<script>alert(1)</script>',
  "'; drop table tenant; --",
  'javascript:alert(1)',
  'x'.repeat(20_000),
];

/** Query strings (without `?`) that no parameter accepts. */
export const BAD_QUERIES = [
  'limit=-1',
  'limit=abc',
  'limit=1e400',
  'limit=99999999999999999999',
  'limit=1&limit=2',
  'limit[a]=1',
  'limit[]=1',
  'offset=-5',
  'offset=%00',
  'after=x',
  'since=yesterday',
  'until=2020-13-45T99:99:99Z',
  'action=%E0%A4%A',
  'action=a%00b',
  `action=${'a'.repeat(5000)}`,
  '%',
  '&&&==&',
];

/** Deeply nested JSON: beyond any depth the service reads, and beyond what a recursive walker survives. */
export const DEEP_JSON = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
export const DEEP_OBJECT = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
