import { createHash } from 'node:crypto';

const ROUNDS = 8;

/**
 * A keyed pseudo-random permutation of [0, size): maps the n-th allocation of a list to its index,
 * so consecutive allocations land on unrelated indexes and an index says nothing about when its
 * credential was issued, while no index can come up twice (a permutation is a bijection).
 *
 * A balanced Feistel network (round function SHA-256(seed || round || half), a PRF on fixed-length
 * input keyed by the list's secret seed, and ten times cheaper than HMAC's per-call key set-up) permutes
 * the smallest even-bit-width domain covering `size`; cycle-walking (re-applying it until the value
 * falls inside [0, size)) restricts that to a permutation of [0, size). The domain is less than four
 * times the size, so a walk takes fewer than four steps on average.
 */
export function permuteIndex(seed: Uint8Array, size: number, position: number): number {
  if (!Number.isSafeInteger(size) || size < 1 || size > 2 ** 31)
    throw new RangeError(`list size ${size} is not valid`);
  if (!Number.isSafeInteger(position) || position < 0 || position >= size)
    throw new RangeError(`position ${position} is outside [0, ${size})`);
  const halfBits = Math.max(1, Math.ceil(Math.log2(size) / 2));
  let x = position;
  do x = feistel(seed, halfBits, x);
  while (x >= size);
  return x;
}

function feistel(seed: Uint8Array, halfBits: number, x: number): number {
  const half = 2 ** halfBits;
  let left = Math.floor(x / half);
  let right = x % half;
  const input = Buffer.alloc(5);
  for (let round = 0; round < ROUNDS; round++) {
    input.writeUInt8(round, 0);
    input.writeUInt32BE(right, 1);
    // A power-of-two modulus of a uniform 32-bit value stays uniform.
    const f = createHash('sha256').update(seed).update(input).digest().readUInt32BE(0) % half;
    [left, right] = [right, left ^ f];
  }
  return left * half + right;
}
