/**
 * The `qrcode` package's mask penalty (lib/core/mask-pattern.js, N1..N4 of ISO/IEC 18004 with the
 * package's exact definitions), computed 32 modules at a time. Each row and each column of the symbol
 * is a line of `words` 32-bit words, module k of the line in bit k&31 of word k>>5, bits past the end 0.
 * Scoring one module at a time branches on every module, and on random-looking data those branches
 * are mispredicted; on words the rules are a few shifts and ANDs per 32 modules.
 */

/** Rows and columns of a size×size symbol as packed lines. */
export interface PackedLines {
  rows: Int32Array;
  cols: Int32Array;
}

export function wordsPerLine(size: number): number {
  return (size + 31) >>> 5;
}

export function pack(m: Uint8Array, size: number): PackedLines {
  const words = wordsPerLine(size);
  const rows = new Int32Array(size * words);
  const cols = new Int32Array(size * words);
  // Modules are 0 or 1: shifted in without a branch, each word stored when full or at the line's end.
  for (let line = 0; line < size; line++) {
    let row = 0;
    let col = 0;
    for (let k = 0; k < size; k++) {
      row |= (m[line * size + k] as number) << (k & 31);
      col |= (m[k * size + line] as number) << (k & 31);
      if ((k & 31) === 31 || k === size - 1) {
        rows[line * words + (k >>> 5)] = row;
        cols[line * words + (k >>> 5)] = col;
        row = 0;
        col = 0;
      }
    }
  }
  return { rows, cols };
}

/** Per word of a line, the bits of positions 0..last. */
function positionsUpTo(last: number, words: number): Int32Array {
  const valid = new Int32Array(words);
  for (let w = 0; w < words; w++) {
    const top = last - 32 * w;
    valid[w] = top >= 31 ? -1 : top < 0 ? 0 : (1 << (top + 1)) - 1;
  }
  return valid;
}

/** What scoring a symbol of one size needs besides the symbol: valid positions, two lines of `same`. */
export interface PenaltyScratch {
  words: number;
  sameValid: Int32Array;
  windowValid: Int32Array;
  same: Int32Array;
  sameAbove: Int32Array;
}

export function penaltyScratch(size: number): PenaltyScratch {
  const words = wordsPerLine(size);
  return {
    words,
    sameValid: positionsUpTo(size - 2, words),
    windowValid: positionsUpTo(size - 11, words),
    same: new Int32Array(words),
    sameAbove: new Int32Array(words),
  };
}

function bitCount(v: number): number {
  v = (v - ((v >>> 1) & 0x55555555)) | 0;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * N1 + N3 of one line at `at`. Leaves in `same` the positions p whose module equals module p+1, which
 * N2 reuses. N1: a run of L >= 5 equal modules scores 3 + (L - 5) = (L - 4) + 2, that is one per
 * position starting five equal modules plus two for the first such position of the run. N3: 40 per
 * position starting 10111010000 or 00001011101.
 */
function linePenalty(
  lines: Int32Array,
  at: number,
  words: number,
  sameValid: Int32Array,
  windowValid: Int32Array,
  same: Int32Array,
): number {
  let finders = 0;
  for (let w = 0; w < words; w++) {
    const a = lines[at + w] as number;
    const b = w + 1 < words ? (lines[at + w + 1] as number) : 0;
    const s1 = (a >>> 1) | (b << 31);
    same[w] = ~(a ^ s1) & (sameValid[w] as number);
    const s4 = (a >>> 4) | (b << 28);
    const s5 = (a >>> 5) | (b << 27);
    const s6 = (a >>> 6) | (b << 26);
    const s9 = (a >>> 9) | (b << 23);
    // What both patterns share: light at +1, +5, +9, dark at +4, +6.
    const common = ~s1 & s4 & ~s5 & s6 & ~s9 & (windowValid[w] as number);
    if (common === 0) continue;
    const s2 = (a >>> 2) | (b << 30);
    const s3 = (a >>> 3) | (b << 29);
    const s7 = (a >>> 7) | (b << 25);
    const s8 = (a >>> 8) | (b << 24);
    const s10 = (a >>> 10) | (b << 22);
    const found = common & ((a & s2 & s3 & ~s7 & ~s8 & ~s10) | (~a & ~s2 & ~s3 & s7 & s8 & s10));
    if (found !== 0) finders += bitCount(found);
  }
  let runs = 0;
  let previousTop = 0;
  for (let w = 0; w < words; w++) {
    const a = same[w] as number;
    const b = w + 1 < words ? (same[w + 1] as number) : 0;
    const five = a & ((a >>> 1) | (b << 31)) & ((a >>> 2) | (b << 30)) & ((a >>> 3) | (b << 29));
    if (five !== 0) runs += bitCount(five) + 2 * bitCount(five & ~((five << 1) | previousTop));
    previousTop = five >>> 31;
  }
  return runs + finders * 40;
}

/**
 * The package's penalty of the symbol, or +Infinity once the score reaches `bound`: every rule adds a
 * non-negative amount, and a mask is chosen only if it scores strictly lower than the best before it.
 */
export function penaltyBelow(
  symbol: PackedLines,
  size: number,
  bound: number,
  scratch: PenaltyScratch,
): number {
  const { words, sameValid, windowValid } = scratch;
  let { same, sameAbove } = scratch;
  const { rows, cols } = symbol;
  let score = 0;
  let dark = 0;
  for (let row = 0; row < size; row++) {
    const at = row * words;
    score += linePenalty(rows, at, words, sameValid, windowValid, same);
    for (let w = 0; w < words; w++) {
      const v = rows[at + w] as number;
      dark += bitCount(v);
      // N2: 3 per 2x2 block of equal modules, the block's left column at this position.
      if (row > 0)
        score +=
          3 *
          bitCount(~(v ^ (rows[at - words + w] as number)) & (same[w] as number) & (sameAbove[w] as number));
    }
    [same, sameAbove] = [sameAbove, same];
    if (score >= bound) return Number.POSITIVE_INFINITY;
  }
  for (let col = 0; col < size; col++) {
    score += linePenalty(cols, col * words, words, sameValid, windowValid, same);
    if (score >= bound) return Number.POSITIVE_INFINITY;
  }
  const modules = size * size;
  return score + Math.abs(Math.ceil((dark * 100) / modules / 5) - 10) * 10;
}
