import { deflateSync, inflateSync } from 'node:zlib';

/** Status Type values (draft-ietf-oauth-status-list, "Status Types"). */
export const StatusType = { VALID: 0x00, INVALID: 0x01, SUSPENDED: 0x02 } as const;

export type StatusBits = 1 | 2 | 4 | 8;

/** Where an entry's bits live: packed least-significant bit first, never straddling a byte. */
export interface EntryPosition {
  byte: number;
  shift: number;
  /** The entry's bits within its byte, in place. */
  mask: number;
}

export function entryPosition(idx: number, bits: StatusBits): EntryPosition {
  if (!Number.isSafeInteger(idx) || idx < 0) throw new RangeError(`status index ${idx} is not valid`);
  const bit = idx * bits;
  const shift = bit % 8;
  return { byte: Math.floor(bit / 8), shift, mask: ((1 << bits) - 1) << shift };
}

/** Bytes that hold `size` entries of `bits` each. */
export const statusByteLength = (size: number, bits: StatusBits) => Math.ceil((size * bits) / 8);

export function writeStatus(bytes: Uint8Array, bits: StatusBits, idx: number, value: number): void {
  const { byte, shift, mask } = entryPosition(idx, bits);
  if (byte >= bytes.length) throw new RangeError(`status index ${idx} is outside the list`);
  if (!Number.isInteger(value) || value < 0 || value >= 1 << bits)
    throw new RangeError(`status ${value} does not fit in ${bits} bits`);
  bytes[byte] = ((bytes[byte] ?? 0) & ~mask) | (value << shift);
}

/** The `lst` member: the byte array, ZLIB/DEFLATE at the highest level (as the spec recommends), base64url. */
export function encodeStatusList(bytes: Uint8Array): string {
  return deflateSync(bytes, { level: 9 }).toString('base64url');
}

/**
 * The byte array of an `lst`. A verifier decompresses data it did not produce, so the output is
 * capped (default 16 MiB: 2^27 one-bit entries) rather than trusting the stream not to be a bomb.
 */
export function decodeStatusList(lst: string, maxBytes = 16 * 1024 * 1024): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(lst)) throw new Error('lst is not base64url');
  return new Uint8Array(inflateSync(Buffer.from(lst, 'base64url'), { maxOutputLength: maxBytes }));
}

/**
 * The status at `idx` of a Status List: `lst` as found in a token, or its already decoded bytes
 * (decode once when reading many entries). An index beyond the list throws: the spec says a
 * verifier can then make no statement and must reject.
 */
export function readStatus(lst: string | Uint8Array, bits: StatusBits, idx: number): number {
  const bytes = typeof lst === 'string' ? decodeStatusList(lst) : lst;
  const { byte, shift, mask } = entryPosition(idx, bits);
  const value = bytes[byte];
  if (value === undefined) throw new RangeError(`status index ${idx} is outside the list`);
  return (value & mask) >> shift;
}
