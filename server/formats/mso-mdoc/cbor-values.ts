/**
 * The CBOR items that JavaScript has no value for, shared by the encoder and the safe decoder. They
 * are our own classes on purpose: cbor-x keeps its tag extensions in one table per process, and
 * @owf/mdoc registers its own classes for tags 0, 17, 18, 24 and 1004 there, so values of cbor-x's
 * or the library's types would be encoded or decoded differently depending on what else is loaded.
 */

/** A tagged item other than an embedded CBOR data item: tdate (0), epoch time (1), full-date (1004), COSE (18). */
export class CborTag<T = unknown> {
  constructor(
    readonly tag: number,
    readonly value: T,
  ) {}
}

/**
 * An embedded CBOR data item, `#6.24(bstr .cbor T)`: the form of IssuerSignedItemBytes,
 * MobileSecurityObjectBytes, DeviceNameSpacesBytes and DeviceAuthenticationBytes. Digests and
 * signatures cover `encoded`, the bytes exactly as issued or received, so it is written back
 * verbatim and never re-encoded.
 */
export class EmbeddedCbor {
  constructor(
    /** The embedded item's own encoding (the content of the byte string). */
    readonly content: Uint8Array,
    /** The whole tagged item: tag 24, the byte string head, the content. */
    readonly encoded: Uint8Array,
  ) {}
}

/** Bytes that already are one encoded CBOR item (a SessionTranscript as given), written verbatim. */
export class RawCbor {
  constructor(readonly encoded: Uint8Array) {}
}

export type CborKey = number | bigint | string;

/** What the safe decoder produces. */
export type CborValue =
  | number
  | bigint
  | string
  | boolean
  | null
  | undefined
  | Uint8Array
  | CborValue[]
  | Map<CborKey, CborValue>
  | CborTag<CborValue>
  | EmbeddedCbor;

const FULL_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** An RFC 3339 full-date (`1990-05-17`) as ISO 18013-5 carries one: `full-date = #6.1004(tstr)`. */
export function fullDate(date: string): CborTag<string> {
  if (!FULL_DATE.test(date) || Number.isNaN(Date.parse(date)))
    throw new RangeError(`"${date}" is not a full-date (YYYY-MM-DD)`);
  return new CborTag(1004, date);
}

/**
 * An ISO 18013-5 tdate, `#6.0(tstr)`: RFC 3339 in UTC without fractions of seconds (the standard
 * forbids them; they are truncated, never rounded up, so a validity never ends later than asked).
 */
export function tdate(date: Date): CborTag<string> {
  if (Number.isNaN(date.getTime())) throw new RangeError('tdate of an invalid Date');
  return new CborTag(0, `${date.toISOString().slice(0, 19)}Z`);
}
