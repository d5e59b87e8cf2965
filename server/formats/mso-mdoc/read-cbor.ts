import { check, reject } from '../../oid4vp/verification/presentation-error.js';
import { type CborKey, CborTag, type CborValue, EmbeddedCbor } from './cbor-values.js';
import { type CborLimits, decodeCborSafely } from './decode-cbor-safely.js';

/**
 * Typed reads of decoded CBOR: each returns the value in the type it must have, or rejects the
 * presentation as `malformed`, naming `what`. A structure of the wrong type is the sender's mistake,
 * never a TypeError of ours.
 */

export type CborMap = Map<CborKey, CborValue>;

export function mapOf(value: CborValue, what: string): CborMap {
  check(value instanceof Map, 'malformed', `${what} is not a map`);
  return value;
}

export function arrayOf(value: CborValue, what: string): CborValue[] {
  check(Array.isArray(value), 'malformed', `${what} is not an array`);
  return value;
}

export function bytesOf(value: CborValue, what: string): Uint8Array {
  check(value instanceof Uint8Array, 'malformed', `${what} is not a byte string`);
  return value;
}

export function textOf(value: CborValue, what: string): string {
  check(typeof value === 'string', 'malformed', `${what} is not a text string`);
  return value;
}

/** A non-negative integer that JavaScript holds exactly. */
export function uintOf(value: CborValue, what: string): number {
  check(
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0,
    'malformed',
    `${what} is not an unsigned integer`,
  );
  return value;
}

/** `map[key]`, which must be present. */
export function field(map: CborMap, key: CborKey, what: string): CborValue {
  check(map.has(key), 'malformed', `${what} has no ${typeof key === 'string' ? `"${key}"` : key}`);
  return map.get(key);
}

/** `#6.24(bstr .cbor T)` decoded: the embedded item, and the tagged bytes digests and signatures cover. */
export function embeddedOf(
  value: CborValue,
  what: string,
  limits?: Partial<CborLimits>,
): { item: CborValue; encoded: EmbeddedCbor } {
  check(value instanceof EmbeddedCbor, 'malformed', `${what} is not an embedded CBOR data item (tag 24)`);
  return { item: decodeCborSafely(value.content, what, limits), encoded: value };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** An ISO 18013-5 tdate, `#6.0(tstr)` with an RFC 3339 date-time. */
export function tdateOf(value: CborValue, what: string): Date {
  check(value instanceof CborTag && value.tag === 0, 'malformed', `${what} is not a tdate (tag 0)`);
  const text = value.value as string;
  const time = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) reject('malformed', `${what} is not an RFC 3339 date-time`);
  return new Date(time);
}

/**
 * A data element value as the verifier hands it on, JSON-safe: maps become objects, byte strings
 * base64url strings, tdate and full-date their text, epoch times (tag 1) ISO date-times, integers
 * beyond 2^53 decimal strings, undefined null, an embedded item the base64url of its bytes.
 */
export function claimValueOf(value: CborValue): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64url');
  if (value instanceof EmbeddedCbor) return Buffer.from(value.content).toString('base64url');
  if (value instanceof CborTag) {
    if (value.tag === 1) {
      const time = new Date((value.value as number) * 1000);
      return Number.isNaN(time.getTime()) ? null : time.toISOString();
    }
    return claimValueOf(value.value);
  }
  if (Array.isArray(value)) return value.map(claimValueOf);
  if (value instanceof Map) {
    const object: Record<string, unknown> = {};
    for (const [key, element] of value) setOwn(object, String(key), claimValueOf(element));
    return object;
  }
  return value;
}

/** `object[key] = value` as an own property even for `__proto__`, which an assignment would not create. */
export function setOwn<T>(object: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
