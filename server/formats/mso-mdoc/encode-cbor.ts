import { CborTag, EmbeddedCbor, RawCbor, tdate } from './cbor-values.js';

/**
 * CBOR encoding (RFC 8949) of what the mdoc structures are made of, with preferred (shortest) heads
 * and definite lengths only. Written here rather than with cbor-x for three reasons: cbor-x writes
 * integers from 2^32 up as floats; it has no way to insert already-encoded bytes (an embedded item
 * must stay byte-identical to what its digest covers); and its tag extensions are process-wide (see
 * cbor-values.ts).
 *
 * Maps keep insertion order (the mdoc structures are written in the order ISO 18013-5 lists them).
 * Non-integral numbers are written as float64: a holder that decodes and re-encodes an item (as
 * @owf/mdoc 0.6.0 does before computing a digest) writes float64 too, so the digest still matches.
 * A Date is a tdate (tag 0). Anything else (functions, symbols, class instances) is a caller's
 * mistake and throws a TypeError.
 */
export function encodeCbor(value: unknown): Uint8Array {
  // One scratch buffer for every call (encoding is synchronous; a nested call, from a getter say,
  // gets its own): issuing an mdoc encodes a few dozen small items, and a fresh buffer for each cost
  // more than the encoding.
  const writer = scratch.busy ? new Writer() : scratch;
  writer.busy = true;
  try {
    writer.item(value, 0);
    return writer.result();
  } finally {
    writer.reset();
  }
}

/** `#6.24(bstr .cbor content)`: `content` (one encoded item) as an embedded data item. */
export function embedCbor(content: Uint8Array): EmbeddedCbor {
  const length = content.length;
  const head = headSize(length);
  const encoded = new Uint8Array(2 + head + length);
  encoded[0] = 0xd8; // tag with a 1-byte number: 24
  encoded[1] = 24;
  if (head === 1) encoded[2] = 0x40 | length;
  else if (head === 2) {
    encoded[2] = 0x58;
    encoded[3] = length;
  } else {
    const view = new DataView(encoded.buffer);
    encoded[2] = head === 3 ? 0x59 : 0x5a;
    if (head === 3) view.setUint16(3, length);
    else view.setUint32(3, length);
  }
  encoded.set(content, 2 + head);
  return new EmbeddedCbor(content, encoded);
}

const MAX_DEPTH = 64;
const SCRATCH_BYTES = 4096;
const utf8 = new TextEncoder();

/** Bytes of the shortest head for `argument`. */
const headSize = (argument: number) =>
  argument < 24 ? 1 : argument < 0x100 ? 2 : argument < 0x10000 ? 3 : argument <= 0xffffffff ? 5 : 9;

class Writer {
  #buffer: Uint8Array;
  #view: DataView;
  #length = 0;
  busy = false;

  constructor(capacity = SCRATCH_BYTES) {
    this.#buffer = new Uint8Array(capacity);
    this.#view = new DataView(this.#buffer.buffer);
  }

  /** A copy of what was written: the buffer is used again. */
  result(): Uint8Array {
    return this.#buffer.slice(0, this.#length);
  }

  reset() {
    this.#length = 0;
    this.busy = false;
    // A large value grew the buffer: do not keep that much memory for the small ones.
    if (this.#buffer.length > 64 * SCRATCH_BYTES) {
      this.#buffer = new Uint8Array(SCRATCH_BYTES);
      this.#view = new DataView(this.#buffer.buffer);
    }
  }

  #reserve(n: number): number {
    const at = this.#length;
    if (at + n > this.#buffer.length) {
      const grown = new Uint8Array(Math.max(this.#buffer.length * 2, at + n));
      grown.set(this.#buffer.subarray(0, at));
      this.#buffer = grown;
      this.#view = new DataView(grown.buffer);
    }
    this.#length += n;
    return at;
  }

  bytes(data: Uint8Array) {
    const at = this.#reserve(data.length);
    this.#buffer.set(data, at);
  }

  /** One byte. (`this.#buffer[this.#reserve(1)]` would read the buffer before reserve grows it.) */
  #byte(value: number) {
    const at = this.#reserve(1);
    this.#buffer[at] = value;
  }

  /** A head: major type and argument, in the shortest form. */
  head(major: number, argument: number | bigint) {
    const m = major << 5;
    if (typeof argument === 'bigint' || argument > 0xffffffff) {
      const at = this.#reserve(9);
      this.#buffer[at] = m | 27;
      this.#view.setBigUint64(at + 1, BigInt(argument));
    } else if (argument < 24) this.#byte(m | argument);
    else if (argument < 0x100) {
      const at = this.#reserve(2);
      this.#buffer[at] = m | 24;
      this.#buffer[at + 1] = argument;
    } else if (argument < 0x10000) {
      const at = this.#reserve(3);
      this.#buffer[at] = m | 25;
      this.#view.setUint16(at + 1, argument);
    } else {
      const at = this.#reserve(5);
      this.#buffer[at] = m | 26;
      this.#view.setUint32(at + 1, argument);
    }
  }

  #number(n: number) {
    if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
      if (n >= 0) this.head(0, n);
      else this.head(1, -1 - n);
      return;
    }
    const at = this.#reserve(9);
    this.#buffer[at] = 0xfb;
    this.#view.setFloat64(at + 1, n);
  }

  /** UTF-8 written in place: room for the longest encoding, then the head fitted to the actual one. */
  #text(text: string) {
    const longest = text.length * 3;
    const reserved = headSize(longest);
    const at = this.#reserve(reserved + longest);
    const { written } = utf8.encodeInto(text, this.#buffer.subarray(at + reserved, at + reserved + longest));
    const actual = headSize(written);
    if (actual !== reserved) this.#buffer.copyWithin(at + actual, at + reserved, at + reserved + written);
    this.#length = at;
    this.head(3, written);
    this.#length = at + actual + written;
  }

  #bigint(n: bigint) {
    if (n >= 0n && n < 1n << 64n) this.head(0, n);
    else if (n < 0n && n >= -(1n << 64n)) this.head(1, -1n - n);
    else throw new RangeError('an integer beyond 64 bits cannot be encoded');
  }

  item(value: unknown, depth: number): void {
    if (depth > MAX_DEPTH) throw new TypeError(`a value nested deeper than ${MAX_DEPTH} levels (a cycle?)`);
    if (value === null) this.#byte(0xf6);
    else if (value === undefined) this.#byte(0xf7);
    else if (typeof value === 'boolean') this.#byte(value ? 0xf5 : 0xf4);
    else if (typeof value === 'number') this.#number(value);
    else if (typeof value === 'bigint') this.#bigint(value);
    else if (typeof value === 'string') this.#text(value);
    else if (value instanceof Uint8Array) {
      this.head(2, value.length);
      this.bytes(value);
    } else if (value instanceof EmbeddedCbor || value instanceof RawCbor) this.bytes(value.encoded);
    else if (value instanceof CborTag) {
      this.head(6, value.tag);
      this.item(value.value, depth + 1);
    } else if (value instanceof Date) this.item(tdate(value), depth);
    else if (Array.isArray(value)) {
      this.head(4, value.length);
      for (const element of value) this.item(element, depth + 1);
    } else if (value instanceof Map) {
      this.head(5, value.size);
      for (const [key, element] of value) {
        this.item(key, depth + 1);
        this.item(element, depth + 1);
      }
    } else if (typeof value === 'object' && isPlainObject(value)) {
      const entries = Object.entries(value);
      this.head(5, entries.length);
      for (const [key, element] of entries) {
        this.item(key, depth + 1);
        this.item(element, depth + 1);
      }
    } else
      throw new TypeError(
        `a ${typeof value} (${Object.prototype.toString.call(value)}) has no CBOR form here`,
      );
  }
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const scratch = new Writer();
