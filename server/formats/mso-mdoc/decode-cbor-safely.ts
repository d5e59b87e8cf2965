import { reject } from '../../oid4vp/verification/presentation-error.js';
import { type CborKey, CborTag, type CborValue, EmbeddedCbor } from './cbor-values.js';

/** What a decode may cost: every limit is checked before the memory it guards is taken. */
export interface CborLimits {
  /** Bytes of the whole input. */
  maxBytes: number;
  /** Nesting of arrays, maps and tags (an embedded data item counts afresh when it is decoded). */
  maxDepth: number;
  /** Data items in the whole input. */
  maxItems: number;
  /** Tags accepted; any other is refused. */
  tags: ReadonlySet<number>;
}

/**
 * The defaults for mdoc structures: 256 KiB (a DeviceResponse of an employee credential is a few
 * kilobytes), 24 levels (a DeviceResponse needs 7, a claim value a few more), and the tags ISO
 * 18013-5 uses: tdate (0), epoch time (1), embedded CBOR (24) and full-date (1004).
 */
export const MDOC_CBOR_LIMITS: CborLimits = {
  maxBytes: 256 * 1024,
  maxDepth: 24,
  maxItems: 100_000,
  tags: new Set([0, 1, 24, 1004]),
};

/**
 * Decodes one CBOR item (RFC 8949) from bytes nobody vouches for yet, into plain values, Maps (keys
 * numbers or strings only, no duplicates), CborTag and EmbeddedCbor (tag 24, with its bytes exactly
 * as received). Refused, as a PresentationError `malformed` naming `what`: input over the limits,
 * indefinite lengths, lengths beyond the input, nesting past the depth limit, tags not allowed,
 * invalid UTF-8, reserved or unassigned simple values, and bytes after the item. It never throws
 * anything else, and allocates nothing larger than the input.
 */
export function decodeCborSafely(
  bytes: Uint8Array,
  what: string,
  limits: Partial<CborLimits> = {},
): CborValue {
  const l = { ...MDOC_CBOR_LIMITS, ...limits };
  if (!(bytes instanceof Uint8Array)) reject('malformed', `${what} is not a byte string`);
  if (bytes.length > l.maxBytes) reject('malformed', `${what} is larger than ${l.maxBytes} bytes`);
  const reader = new Reader(bytes, what, l);
  const value = reader.item(0);
  if (reader.pos !== bytes.length) reader.fail(`${bytes.length - reader.pos} bytes follow the item`);
  return value;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

class Reader {
  pos = 0;
  #items = 0;
  readonly #view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly what: string,
    readonly limits: CborLimits,
  ) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  fail(reason: string): never {
    return reject('malformed', `${this.what} is not valid CBOR: ${reason}`);
  }

  #need(n: number) {
    if (n > this.bytes.length - this.pos) this.fail('it ends before the item does');
  }

  /** The argument of a head; a bigint only when it exceeds 2^53 - 1. */
  #argument(info: number): number | bigint {
    if (info < 24) return info;
    const size = 1 << (info - 24);
    this.#need(size);
    const at = this.pos;
    this.pos += size;
    if (size === 1) return this.bytes[at] as number;
    if (size === 2) return this.#view.getUint16(at);
    if (size === 4) return this.#view.getUint32(at);
    const big = this.#view.getBigUint64(at);
    return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }

  /** A length or count: `unit` bytes at least per element must remain, so nothing is allocated for air. */
  #length(argument: number | bigint, unit: number): number {
    if (typeof argument === 'bigint' || argument * unit > this.bytes.length - this.pos)
      this.fail('a length runs past the end of the input');
    return argument;
  }

  item(depth: number): CborValue {
    if (depth > this.limits.maxDepth)
      this.fail(`items are nested deeper than ${this.limits.maxDepth} levels`);
    if (++this.#items > this.limits.maxItems) this.fail(`it has more than ${this.limits.maxItems} items`);
    const start = this.pos;
    this.#need(1);
    const initial = this.bytes[this.pos++] as number;
    const major = initial >> 5;
    const info = initial & 0x1f;
    if (info === 31)
      this.fail(
        major === 7 ? 'a break outside an indefinite-length item' : 'indefinite-length items are refused',
      );
    if (info > 27) this.fail(`reserved additional information ${info}`);
    if (major === 7) return this.#simple(info);
    const argument = this.#argument(info);
    switch (major) {
      case 0:
        return argument;
      case 1:
        return typeof argument === 'bigint' || argument >= Number.MAX_SAFE_INTEGER
          ? -1n - BigInt(argument)
          : -1 - argument;
      case 2: {
        const n = this.#length(argument, 1);
        this.pos += n;
        return this.bytes.subarray(this.pos - n, this.pos);
      }
      case 3: {
        const n = this.#length(argument, 1);
        this.pos += n;
        try {
          return utf8.decode(this.bytes.subarray(this.pos - n, this.pos));
        } catch {
          return this.fail('a text string is not valid UTF-8');
        }
      }
      case 4: {
        const n = this.#length(argument, 1);
        const array: CborValue[] = new Array(n);
        for (let i = 0; i < n; i++) array[i] = this.item(depth + 1);
        return array;
      }
      case 5: {
        const n = this.#length(argument, 2);
        const map = new Map<CborKey, CborValue>();
        for (let i = 0; i < n; i++) {
          const key = this.item(depth + 1);
          if (typeof key !== 'number' && typeof key !== 'bigint' && typeof key !== 'string')
            this.fail('a map key is neither an integer nor a text string');
          if (map.has(key)) this.fail(`the map key ${String(key)} appears twice`);
          map.set(key, this.item(depth + 1));
        }
        return map;
      }
      default:
        return this.#tag(argument, start, depth);
    }
  }

  #tag(tag: number | bigint, start: number, depth: number): CborValue {
    if (typeof tag === 'bigint' || !this.limits.tags.has(tag)) this.fail(`tag ${tag} is not accepted here`);
    const value = this.item(depth + 1);
    if (tag === 24) {
      if (!(value instanceof Uint8Array)) this.fail('tag 24 does not hold a byte string');
      return new EmbeddedCbor(value, this.bytes.subarray(start, this.pos));
    }
    if ((tag === 0 || tag === 1004) && typeof value !== 'string')
      this.fail(`tag ${tag} does not hold a text string`);
    if (tag === 1 && typeof value !== 'number') this.fail('tag 1 does not hold a number');
    return new CborTag(tag, value);
  }

  #simple(info: number): CborValue {
    switch (info) {
      case 20:
        return false;
      case 21:
        return true;
      case 22:
        return null;
      case 23:
        return undefined;
      case 25:
        this.#need(2);
        this.pos += 2;
        return halfToNumber(this.#view.getUint16(this.pos - 2));
      case 26:
        this.#need(4);
        this.pos += 4;
        return this.#view.getFloat32(this.pos - 4);
      case 27:
        this.#need(8);
        this.pos += 8;
        return this.#view.getFloat64(this.pos - 8);
      default:
        return this.fail(`simple value ${info === 24 ? this.bytes[this.pos] : info} is not assigned`);
    }
  }
}

/** IEEE 754 binary16 (RFC 8949 Appendix D). */
function halfToNumber(half: number): number {
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  const value =
    exponent === 0
      ? mantissa * 2 ** -24
      : exponent === 31
        ? mantissa === 0
          ? Number.POSITIVE_INFINITY
          : Number.NaN
        : (mantissa + 1024) * 2 ** (exponent - 25);
  return half & 0x8000 ? -value : value;
}
