import {
  type PackedLines,
  type PenaltyScratch,
  pack,
  penaltyBelow,
  penaltyScratch,
} from './qr-mask-penalty.js';

/**
 * The data mask of a QR code symbol, chosen as ISO/IEC 18004 prescribes (all eight masks scored by the
 * penalty rules N1..N4, the lowest score wins, the first of equals) and exactly as the `qrcode`
 * package's own search (lib/core/mask-pattern.js getBestMask) chooses it, so that a symbol built with
 * the chosen mask fixed is the one the package would have built. The package scores each mask with a
 * function call per module read, four passes per mask; this scores 32 modules at a time
 * (qr-mask-penalty.ts) and stops scoring a mask as soon as it can no longer win.
 */

/** What choosing a mask needs to know of a symbol size, the same for every symbol of that size (size
 * fixes the version, and with it the function patterns). */
export interface SizeMasks {
  /** Per mask, 1 where it flips a module: the mask is dark there and the module is not a function
   * pattern, format or version module (the package's `reservedBit`). */
  flips: Uint8Array[];
  /** Per mask, its flips with its format information written over them, as packed lines. */
  overlays: PackedLines[];
  scratch: PenaltyScratch;
}

const masksBySize = new Map<number, SizeMasks>();

const maskAt: ((i: number, j: number) => boolean)[] = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
];

export function sizeMasks(size: number, reserved: Uint8Array): SizeMasks {
  let masks = masksBySize.get(size);
  if (masks) return masks;
  const flips = maskAt.map((dark) => {
    const f = new Uint8Array(size * size);
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const i = row * size + col;
        f[i] = !reserved[i] && dark(row, col) ? 1 : 0;
      }
    }
    return f;
  });
  const overlays = flips.map((f, p) => {
    const overlay = f.slice();
    writeFormatBits(overlay, size, formatBitsM[p] as number);
    return pack(overlay, size);
  });
  masks = { flips, overlays, scratch: penaltyScratch(size) };
  masksBySize.set(size, masks);
  return masks;
}

/**
 * The 15 format information bits for error correction level M (level bits 00) and each mask: the
 * (15,5) BCH code of the five data bits, XOR 101010000010010 (ISO/IEC 18004 table C.1).
 */
export const formatBitsM = [0x5412, 0x5125, 0x5e7c, 0x5b4b, 0x45f9, 0x40ce, 0x4f97, 0x4aa0] as const;

/** Writes format information into `m` at the modules and in the bit order the package uses
 * (lib/core/qrcode.js setupFormatInfo): the copy along column 8 and the copy along row 8. */
export function writeFormatBits(m: Uint8Array, size: number, bits: number): void {
  for (let i = 0; i < 15; i++) {
    const bit = (bits >> i) & 1;
    const row = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
    m[row * size + 8] = bit;
    const col = i < 8 ? size - i - 1 : i < 9 ? 7 : 14 - i;
    m[8 * size + col] = bit;
  }
}

/** The mask the package's getBestMask would choose for a symbol whose modules, before masking, are
 * `unmasked` (function patterns, version information and the dark module included). */
export function chooseMask(unmasked: Uint8Array, size: number, masks: SizeMasks): number {
  // Format modules cleared, so that XOR with a mask's overlay leaves that mask's format information.
  const cleared = unmasked.slice();
  writeFormatBits(cleared, size, 0);
  const base = pack(cleared, size);
  const candidate: PackedLines = {
    rows: new Int32Array(base.rows.length),
    cols: new Int32Array(base.cols.length),
  };
  let best = 0;
  let lowest = Number.POSITIVE_INFINITY;
  for (let p = 0; p < 8; p++) {
    const overlay = masks.overlays[p] as PackedLines;
    for (let i = 0; i < candidate.rows.length; i++) {
      candidate.rows[i] = (base.rows[i] as number) ^ (overlay.rows[i] as number);
      candidate.cols[i] = (base.cols[i] as number) ^ (overlay.cols[i] as number);
    }
    const penalty = penaltyBelow(candidate, size, lowest, masks.scratch);
    if (penalty < lowest) {
      lowest = penalty;
      best = p;
    }
  }
  return best;
}
