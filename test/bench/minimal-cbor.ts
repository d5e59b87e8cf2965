/**
 * The least CBOR (RFC 8949) the minimal mdoc pipeline needs: preferred heads, definite lengths,
 * integers, text, byte strings, arrays, maps, tags, null and booleans (float64 for non-integers).
 * Decoded byte strings are views into the input; an embedded item (tag 24) keeps the bytes of the
 * whole tagged item, which digests and signatures cover. No limits, no checks of hostile input: the
 * minimal pipeline reads only what its own driver made.
 */
export class Tag {
  constructor(
    readonly tag: number,
    readonly value: unknown,
    /** The whole tagged item as received (or made): written back verbatim. */
    readonly encoded?: Uint8Array,
  ) {}
}

/** Bytes that already are one CBOR item, written verbatim (a SessionTranscript). */
export class Raw {
  constructor(readonly encoded: Uint8Array) {}
}

let buf = Buffer.allocUnsafe(8192);
let at = 0;

function room(n: number) {
  if (at + n <= buf.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, at + n));
  buf.copy(bigger, 0, 0, at);
  buf = bigger;
}

function head(major: number, n: number) {
  room(9);
  const m = major << 5;
  if (n < 24) buf[at++] = m | n;
  else if (n < 0x100) {
    buf[at++] = m | 24;
    buf[at++] = n;
  } else if (n < 0x10000) {
    buf[at++] = m | 25;
    at = buf.writeUInt16BE(n, at);
  } else if (n < 0x100000000) {
    buf[at++] = m | 26;
    at = buf.writeUInt32BE(n, at);
  } else {
    buf[at++] = m | 27;
    at = buf.writeBigUInt64BE(BigInt(n), at);
  }
}

function simple(byte: number) {
  room(1);
  buf[at++] = byte;
}

function bytes(b: Uint8Array) {
  room(b.length);
  buf.set(b, at);
  at += b.length;
}

function item(v: unknown): void {
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) {
      room(9);
      buf[at++] = 0xfb;
      at = buf.writeDoubleBE(v, at);
    } else if (v >= 0) head(0, v);
    else head(1, -1 - v);
  } else if (typeof v === 'string') {
    const n = Buffer.byteLength(v);
    head(3, n);
    room(n);
    at += buf.write(v, at);
  } else if (v instanceof Uint8Array) {
    head(2, v.length);
    bytes(v);
  } else if (Array.isArray(v)) {
    head(4, v.length);
    for (const x of v) item(x);
  } else if (v instanceof Map) {
    head(5, v.size);
    for (const [k, x] of v) {
      item(k);
      item(x);
    }
  } else if (v instanceof Tag) {
    if (v.encoded) bytes(v.encoded);
    else {
      head(6, v.tag);
      item(v.value);
    }
  } else if (v instanceof Raw) bytes(v.encoded);
  else if (v === null || v === undefined) simple(0xf6);
  else if (typeof v === 'boolean') simple(v ? 0xf5 : 0xf4);
  else if (typeof v === 'object') item(new Map(Object.entries(v)));
  else throw new TypeError(`cannot encode ${typeof v}`);
}

/** One encoded item, a copy of its own (the scratch buffer is reused by the next call). */
export function encode(value: unknown): Uint8Array {
  at = 0;
  item(value);
  return new Uint8Array(buf.subarray(0, at));
}

/** An embedded CBOR data item, `#6.24(bstr .cbor value)`, with its bytes. */
export function embed(value: unknown): Tag {
  const content = encode(value);
  return new Tag(24, content, encode(new Tag(24, content)));
}

/** One item from `input` (the whole of it); maps are Maps, tags Tags, byte strings views. */
export function decode(input: Uint8Array): unknown {
  const b = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  let p = 0;
  const length = (info: number): number => {
    if (info < 24) return info;
    const n = 1 << (info - 24);
    const v =
      n === 1
        ? b[p]
        : n === 2
          ? b.readUInt16BE(p)
          : n === 4
            ? b.readUInt32BE(p)
            : Number(b.readBigUInt64BE(p));
    p += n;
    return v as number;
  };
  const next = (): unknown => {
    const start = p;
    const initial = b[p++] as number;
    const major = initial >> 5;
    const info = initial & 31;
    if (major === 7) {
      if (info === 20 || info === 21) return info === 21;
      if (info === 22 || info === 23) return null;
      p += info === 27 ? 8 : 4;
      return info === 27 ? b.readDoubleBE(p - 8) : b.readFloatBE(p - 4);
    }
    const n = length(info);
    if (major === 0) return n;
    if (major === 1) return -1 - n;
    if (major === 2 || major === 3) {
      const from = p;
      p += n;
      return major === 2 ? b.subarray(from, p) : b.toString('utf8', from, p);
    }
    if (major === 4) return Array.from({ length: n }, next);
    if (major === 5) {
      const map = new Map<unknown, unknown>();
      for (let i = 0; i < n; i++) map.set(next(), next());
      return map;
    }
    const value = next();
    return new Tag(n, value, n === 24 ? b.subarray(start, p) : undefined);
  };
  return next();
}
