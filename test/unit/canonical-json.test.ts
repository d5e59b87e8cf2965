import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../server/audit/canonical-json.js';

describe('canonicalJson', () => {
  it('is independent of key order at every depth', () => {
    const a = { b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } };
    const b = { a: { c: 'x', d: [1, { x: 1, y: 2 }] }, b: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"c":"x","d":[1,{"x":1,"y":2}]},"b":1}');
  });

  it('tells different values apart and drops undefined members', () => {
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });
});
