import { describe, expect, it } from 'vitest';
import {
  decodeStatusList,
  encodeStatusList,
  readStatus,
  type StatusBits,
  statusByteLength,
  writeStatus,
} from '../../server/status-list/status-list-encoding.js';

/** Test vectors of draft-ietf-oauth-status-list ("Compressed Byte Array" and "Test vectors"). */
const hex = (h: string) => Buffer.from(h, 'hex').toString('base64url');

const SHORT_1BIT = {
  statuses: [1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1],
  bytes: [0xb9, 0xa3],
  lst: hex('78dadbb918000217015d'),
};
const SHORT_2BIT = {
  statuses: [0b01, 0b10, 0b00, 0b11, 0b00, 0b01, 0b00, 0b01, 0b01, 0b10, 0b11, 0b11],
  bytes: [0xc9, 0x44, 0xf9],
  lst: hex('78da3be9f2130003df0207'),
};

// 2^20 entries each; every entry not listed is 0.
const LONG_SIZE = 2 ** 20;
const LONG_1BIT = {
  set: [0, 1993, 25460, 159495, 495669, 554353, 645645, 723232, 854545, 934534, 1000345].map(
    (i) => [i, 1] as const,
  ),
  // The spec's lines, as published.
  lst: [
    'eNrt3AENwCAMAEGogklACtKQPg9LugC9k_ACvreiogE',
    'AAKkeCQAAAAAAAAAAAAAAAAAAAIBylgQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'AAAAAAAAAAAAAAAAAAAXG9IAAAAAAAAAPwsJAAAAAAAAAAAAAAAvhsSAAAAAAAAAAA',
    'A7KpLAAAAAAAAAAAAAAAAAAAAAJsLCQAAAAAAAAAAADjelAAAAAAAAAAAKjDMAQAAA',
    'ACAZC8L2AEb',
  ].join(''),
};
const LONG_2BIT = {
  set: [
    [0, 0b01],
    [1993, 0b10],
    [25460, 0b01],
    [159495, 0b11],
    [495669, 0b01],
    [554353, 0b01],
    [645645, 0b10],
    [723232, 0b01],
    [854545, 0b01],
    [934534, 0b10],
    [1000345, 0b11],
  ] as const,
  lst: [
    'eNrt2zENACEQAEEuoaBABP5VIO01fCjIHTMStt9ovGV',
    'IAAAAAABAbiEBAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEB5WwIAAAAAA',
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAID0ugQAAAAAAAAAAAAAAAAAQG12SgAAA',
    'AAAAAAAAAAAAAAAAAAAAAAAAOCSIQEAAAAAAAAAAAAAAAAAAAAAAAD8ExIAAAAAAAA',
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAwJEuAQAAAAAAAAAAAAAAAAAAAAAAAMB9S',
    'wIAAAAAAAAAAAAAAAAAAACoYUoAAAAAAAAAAAAAAEBqH81gAQw',
  ].join(''),
};

function pack(bits: StatusBits, size: number, set: Iterable<readonly [number, number]>) {
  const bytes = new Uint8Array(statusByteLength(size, bits));
  for (const [idx, value] of set) writeStatus(bytes, bits, idx, value);
  return bytes;
}

describe('status list encoding', () => {
  it.each([
    ['1-bit', 1, SHORT_1BIT],
    ['2-bit', 2, SHORT_2BIT],
  ] as const)(
    'packs the %s example of the spec least significant bit first, and compresses it to the spec bytes',
    (_, bits, v) => {
      const bytes = pack(bits, v.statuses.length, v.statuses.entries());
      expect([...bytes]).toEqual(v.bytes);
      expect(encodeStatusList(bytes)).toBe(v.lst);
      v.statuses.forEach((status, idx) => {
        expect(readStatus(v.lst, bits, idx)).toBe(status);
      });
    },
  );

  it.each([
    ['1-bit', 1, LONG_1BIT],
    ['2-bit', 2, LONG_2BIT],
  ] as const)('reads the %s test vector of 2^20 entries, and encodes the same byte array', (_, bits, v) => {
    const specBytes = decodeStatusList(v.lst);
    expect(specBytes.length).toBe(statusByteLength(LONG_SIZE, bits));
    for (const [idx, value] of v.set) expect(readStatus(v.lst, bits, idx)).toBe(value);
    const nonZero = [];
    for (let idx = 0; idx < LONG_SIZE; idx++) if (readStatus(specBytes, bits, idx) !== 0) nonZero.push(idx);
    expect(nonZero).toEqual(v.set.map(([idx]) => idx));

    const ours = encodeStatusList(pack(bits, LONG_SIZE, v.set));
    // DEFLATE output is not unique: the spec's vectors come from another zlib build, so the
    // comparison that matters is of the decompressed bytes.
    expect(Buffer.from(decodeStatusList(ours)).equals(Buffer.from(specBytes))).toBe(true);
  });

  it('round-trips random statuses at every bit width', () => {
    for (const bits of [1, 2, 4, 8] as const) {
      const size = 10_000;
      const values = Array.from({ length: size }, () => Math.floor(Math.random() * 2 ** bits));
      const lst = encodeStatusList(pack(bits, size, values.entries()));
      const bytes = decodeStatusList(lst);
      values.forEach((value, idx) => {
        if (readStatus(bytes, bits, idx) !== value) throw new Error(`${bits} bits, index ${idx}`);
      });
    }
  });

  it('overwrites an entry without touching its neighbours in the same byte', () => {
    const bytes = pack(2, 8, [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 1],
    ]);
    writeStatus(bytes, 2, 1, 0);
    expect([0, 1, 2, 3].map((i) => readStatus(bytes, 2, i))).toEqual([1, 0, 3, 1]);
  });

  it('refuses indexes outside the list, values that do not fit, and text that is not base64url', () => {
    const lst = encodeStatusList(new Uint8Array(4));
    expect(() => readStatus(lst, 2, 16)).toThrow(RangeError);
    expect(() => readStatus(lst, 2, -1)).toThrow(RangeError);
    expect(() => writeStatus(new Uint8Array(4), 2, 0, 4)).toThrow(RangeError);
    expect(() => decodeStatusList('not base64url!')).toThrow();
  });

  it('caps the decompressed size, so a verifier cannot be fed a decompression bomb', () => {
    const bomb = encodeStatusList(new Uint8Array(64 * 1024));
    expect(bomb.length).toBeLessThan(200);
    expect(() => decodeStatusList(bomb, 1024)).toThrow();
  });
});
