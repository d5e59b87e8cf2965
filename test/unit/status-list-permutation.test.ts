import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { permuteIndex } from '../../server/status-list/status-list-permutation.js';

describe('status list index permutation', () => {
  it.each([1, 4, 16, 100, 1000, 16_384])('is a bijection of [0, %i)', (size) => {
    const seed = randomBytes(32);
    const seen = new Uint8Array(size);
    for (let n = 0; n < size; n++) {
      const idx = permuteIndex(seed, size, n);
      if (idx < 0 || idx >= size || seen[idx]) throw new Error(`index ${idx} for position ${n}`);
      seen[idx] = 1;
    }
  });

  it('depends on the seed and gives no order away', () => {
    const size = 131_072;
    const a = randomBytes(32);
    const b = randomBytes(32);
    const first = Array.from({ length: 200 }, (_, n) => permuteIndex(a, size, n));
    expect(Array.from({ length: 200 }, (_, n) => permuteIndex(b, size, n))).not.toEqual(first);
    expect(Array.from({ length: 200 }, (_, n) => permuteIndex(a, size, n))).toEqual(first);
    // Consecutive allocations are neither ascending nor adjacent.
    const ascending = first.filter((v, i) => i > 0 && v > (first[i - 1] as number)).length;
    expect(ascending).toBeGreaterThan(60);
    expect(ascending).toBeLessThan(140);
    expect(first.filter((v, i) => i > 0 && Math.abs(v - (first[i - 1] as number)) === 1).length).toBeLessThan(
      3,
    );
  });

  it('refuses positions outside the list', () => {
    expect(() => permuteIndex(randomBytes(32), 16, 16)).toThrow(RangeError);
    expect(() => permuteIndex(randomBytes(32), 16, -1)).toThrow(RangeError);
  });
});
