import { Encoder } from 'cbor-x';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CborTag,
  EmbeddedCbor,
  fullDate,
  RawCbor,
  tdate,
} from '../../server/formats/mso-mdoc/cbor-values.js';
import { decodeCborSafely } from '../../server/formats/mso-mdoc/decode-cbor-safely.js';
import { embedCbor, encodeCbor } from '../../server/formats/mso-mdoc/encode-cbor.js';
import { claimValueOf } from '../../server/formats/mso-mdoc/read-cbor.js';
import { verifyDeviceResponse } from '../../server/formats/mso-mdoc/verify-device-response.js';
import { PresentationError } from '../../server/oid4vp/verification/presentation-error.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replaceAll(' ', ''), 'hex'));
/** cbor-x as @owf/mdoc configures it: the reference our encoder is compared with. */
const cborX = new Encoder({
  tagUint8Array: false,
  useRecords: false,
  mapsAsObjects: false,
  variableMapSize: true,
});

/** JSON-like values whose integers stay within 32 bits (beyond, cbor-x writes floats) and without -0. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.integer({ min: -(2 ** 32), max: 2 ** 32 - 1 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
  ),
  array: fc.array(tie('node'), { maxLength: 5 }),
  object: fc.dictionary(
    fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__'),
    tie('node'),
    { maxKeys: 5 },
  ),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('array'), tie('object')),
})).node;

function malformed(input: Uint8Array, limits = {}): string {
  try {
    decodeCborSafely(input, 'the input', limits);
  } catch (e) {
    expect(e).toBeInstanceOf(PresentationError);
    expect((e as PresentationError).code).toBe('malformed');
    return (e as Error).message;
  }
  throw new Error('it was decoded');
}

describe('CBOR for mdocs: encodeCbor and decodeCborSafely', () => {
  it('encodes as cbor-x does (preferred heads, float64), and decodes what it encodes', () => {
    fc.assert(
      fc.property(value, (v) => {
        const ours = encodeCbor(v);
        expect(hex(ours)).toBe(hex(cborX.encode(v)));
        expect(claimValueOf(decodeCborSafely(ours, 'it'))).toEqual(v);
      }),
      { numRuns: 300 },
    );
  });

  it('writes integers as integers up to 64 bits, the tags of ISO 18013-5, and embedded items verbatim', () => {
    expect(
      hex(encodeCbor([23, 24, 255, 256, 65535, 65536, 2 ** 32, 2 ** 53 - 1, -1, -25, 2n ** 64n - 1n])),
    ).toBe('8b17181818ff19010019ffff1a000100001b00000001000000001b001fffffffffffff2038181bffffffffffffffff');
    expect(() => encodeCbor(2n ** 64n)).toThrow(RangeError);
    expect(hex(encodeCbor(tdate(new Date('2025-01-02T03:04:05.999Z'))))).toBe(
      hex(encodeCbor(new CborTag(0, '2025-01-02T03:04:05Z'))),
    );
    expect(hex(encodeCbor(new Date('2025-01-02T03:04:05Z')))).toBe(
      hex(encodeCbor(tdate(new Date('2025-01-02T03:04:05Z')))),
    );
    expect(hex(encodeCbor(fullDate('1990-05-17')))).toBe('d903ec6a313939302d30352d3137');
    expect(() => fullDate('1990-5-17')).toThrow(RangeError);
    const embedded = embedCbor(encodeCbor({ a: 1 }));
    expect(hex(embedded.encoded)).toBe('d81844a1616101');
    expect(hex(encodeCbor([embedded, new RawCbor(bytes('f6'))]))).toBe('82d81844a1616101f6');
    expect(
      hex(
        encodeCbor(
          new Map<unknown, unknown>([
            [1, -7],
            ['x', new Uint8Array([1])],
          ]),
        ),
      ),
    ).toBe('a2012661784101');
    expect(hex(encodeCbor([undefined, 1.5, -0]))).toBe('83f7fb3ff8000000000000fb8000000000000000');
    for (const bad of [() => 1, Symbol('x'), new (class Thing {})()])
      expect(() => encodeCbor(bad)).toThrow(TypeError);
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(() => encodeCbor(cycle)).toThrow(TypeError);
  });

  it('decodes the values ISO 18013-5 uses, keeping the bytes of embedded items as received', () => {
    expect(decodeCborSafely(bytes('f93c00'), 'h')).toBe(1);
    expect(decodeCborSafely(bytes('f97c00'), 'h')).toBe(Number.POSITIVE_INFINITY);
    expect(decodeCborSafely(bytes('fa3fc00000'), 'f')).toBe(1.5);
    expect(decodeCborSafely(bytes('1b0020000000000000'), 'big')).toBe(2n ** 53n);
    expect(decodeCborSafely(bytes('3b001fffffffffffff'), 'neg')).toBe(-(2n ** 53n));
    expect(decodeCborSafely(bytes('d903ec6a313939302d30352d3137'), 'date')).toEqual(
      new CborTag(1004, '1990-05-17'),
    );
    // A non-preferred head (0x58 00 for an empty byte string) is legal; the bytes stay as they came.
    const embedded = decodeCborSafely(bytes('d8185800'), 'e') as EmbeddedCbor;
    expect(embedded).toBeInstanceOf(EmbeddedCbor);
    expect(hex(embedded.encoded)).toBe('d8185800');
    expect(hex(encodeCbor(embedded))).toBe('d8185800');
  });

  it('refuses hostile input with a reason, never anything but a PresentationError', () => {
    const cases: [string | Uint8Array, RegExp][] = [
      ['', /ends before/],
      ['ff', /break/],
      ['9f0102ff', /indefinite-length/],
      ['5f4101ff', /indefinite-length/],
      ['bf616101ff', /indefinite-length/],
      [`${'81'.repeat(100)}00`, /nested deeper than 24/],
      ['9bffffffffffffffff', /runs past/],
      ['bb00000000ffffffff00', /runs past/],
      ['5affffffff00', /runs past/],
      ['7a7fffffff61', /runs past/],
      ['d82a00', /tag 42 is not accepted/],
      ['d9271000', /tag 10000 is not accepted/],
      ['c1626161', /tag 1 does not hold a number/],
      ['d81801', /tag 24 does not hold a byte string/],
      ['c001', /tag 0 does not hold a text string/],
      ['a2616101616102', /appears twice/],
      ['a18001', /neither an integer nor a text string/],
      ['62c328', /UTF-8/],
      ['0000', /1 bytes follow/],
      ['f0', /simple value 16/],
      ['f818', /simple value 24/],
      ['1c', /reserved/],
      [new Uint8Array(300 * 1024), /larger than 262144 bytes/],
      [bytes(`9a000186a1${'00'.repeat(100_001)}`), /more than 100000 items/],
    ];
    for (const [input, reason] of cases)
      expect(malformed(typeof input === 'string' ? bytes(input) : input)).toMatch(reason);
    expect(malformed(bytes('d2 80'), { tags: new Set([24]) })).toMatch(/tag 18/);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (random) => {
        try {
          decodeCborSafely(random, 'random bytes');
        } catch (e) {
          expect(e).toBeInstanceOf(PresentationError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('turns garbage DeviceResponses into a malformed rejection, never a crash', () => {
    const checks = {
      sessionTranscript: bytes('83f6f6f6'),
      trustAnchors: [],
      now: 0,
      skewSeconds: 0,
      expectedDoctype: 'org.example',
    };
    const garbage: (string | Uint8Array)[] = [
      '',
      'not base64url!',
      'oA',
      Buffer.from('a0').toString('base64url'),
      bytes('bf6776657273696f6e63312e30ff'),
      bytes(`${'81'.repeat(5000)}00`),
      bytes('a36776657273696f6e63312e30667374617475730069646f63756d656e74738180'),
      bytes(
        'a36776657273696f6e63312e306673746174757300 69646f63756d656e747381a1 67646f6354797065 6b6f72672e6578616d706c65'.replaceAll(
          ' ',
          '',
        ),
      ),
      'A'.repeat(2_000_000),
    ];
    for (const input of garbage) {
      try {
        verifyDeviceResponse(input, checks);
        throw new Error('accepted');
      } catch (e) {
        expect(e).toBeInstanceOf(PresentationError);
        expect(['malformed', 'missing_credential']).toContain((e as PresentationError).code);
      }
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (random) => {
        expect(() => verifyDeviceResponse(random, checks)).toThrow(PresentationError);
      }),
      { numRuns: 1000 },
    );
  });
});
