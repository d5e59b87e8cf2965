import { deflateSync, gzipSync } from 'node:zlib';
import { BAD_VALUES, DEEP_JSON, DEEP_OBJECT } from './hostile-values.js';

/** A body as sent, and the JSON value it stands for when it parses (for the contract oracle). */
export interface BodyVariant {
  label: string;
  headers: Record<string, string>;
  body: string | Buffer;
  parsed?: unknown;
  /** The statuses a correct service answers it with, when the wrapping alone decides. */
  expect?: number[];
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const OVERSIZE = 3 * 1024 * 1024;

/** Field-level mutations of a valid body: each field of the wrong type or hostile, missing, extra. */
export function fieldMutations(
  base: Record<string, unknown>,
  fields: string[],
  required: string[],
): BodyVariant[] {
  const variants: { label: string; value: unknown }[] = [];
  for (const field of fields) {
    for (const [i, v] of BAD_VALUES.entries()) {
      variants.push({ label: `${field} = bad value #${i}`, value: { ...base, [field]: v } });
    }
  }
  for (const field of required) {
    const { [field]: _, ...rest } = base;
    variants.push({ label: `without ${field}`, value: rest });
  }
  variants.push(
    { label: 'unknown field', value: { ...base, 'x-hostile': [1] } },
    { label: 'top-level null', value: null },
    { label: 'top-level array', value: [base] },
    { label: 'top-level string', value: 'x' },
    { label: 'top-level number', value: 1 },
  );
  const mutated = variants.map((v) => ({
    label: v.label,
    headers: JSON_TYPE,
    body: JSON.stringify(v.value),
    parsed: v.value,
  }));
  mutated.push({
    label: 'prototype pollution',
    headers: JSON_TYPE,
    body: `{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},${JSON.stringify(base).slice(1)}`,
    parsed: { ...base, constructor: { prototype: { admin: true } } },
  });
  return mutated;
}

/**
 * The same request in every wrong wrapping, each with the status it must get: other media types
 * (415), no or empty body (400), unknown charsets and content encodings (415), broken gzip (400),
 * bombing gzip and oversized bodies (413), deep nesting, malformed JSON, NUL bytes and unpaired
 * surrogates (400). `valid` is a valid body (refused for its wrapping alone), `invalid` one the
 * contract refuses (so that a correctly unwrapped body still changes nothing).
 */
export function jsonTransportVariants(valid: unknown, invalid: unknown): BodyVariant[] {
  const text = JSON.stringify(valid);
  const bad = JSON.stringify(invalid);
  const v = (expect: number, label: string, type: string | undefined, body: string | Buffer, extra = {}) => ({
    label,
    headers: { ...(type ? { 'content-type': type } : {}), ...extra },
    body,
    expect: [expect],
  });
  // A valid body but for one text field: what only the edge's text check can refuse.
  const values = valid && typeof valid === 'object' ? (valid as Record<string, unknown>) : {};
  const field = Object.keys(values).find((k) => typeof values[k] === 'string');
  const withText = (t: string) =>
    JSON.stringify(field ? { ...values, [field]: t } : { ...(invalid as object), x: t });
  const gzip = { 'content-encoding': 'gzip' };
  const bomb = gzipSync(`{"x":"${'0'.repeat(20 * 1024 * 1024)}"}`);
  const J = 'application/json';
  return [
    v(415, 'text/plain', 'text/plain', text),
    v(415, 'XML', 'application/xml', '<request><name>x</name></request>'),
    v(415, 'form', 'application/x-www-form-urlencoded', 'name=x&delivery=direct'),
    v(
      415,
      'multipart',
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="n"\r\n\r\nx\r\n--b--\r\n',
    ),
    v(415, 'no content type', undefined, text),
    v(400, 'empty body', J, ''),
    v(415, 'not JSON but +json', 'application/json-patch+json', text),
    v(415, 'charset utf-7', 'application/json; charset=utf-7', text),
    v(415, 'charset latin1', 'application/json; charset=latin1', text),
    v(415, 'charset garbage', 'application/json; charset="x\\"y"', text),
    v(415, 'Content-Encoding br', J, text, { 'content-encoding': 'br' }),
    v(415, 'Content-Encoding unknown', J, text, { 'content-encoding': 'x-hostile' }),
    v(415, 'Content-Encoding twice', J, text, { 'content-encoding': 'gzip, gzip' }),
    v(400, 'gzip header, plain body', J, text, gzip),
    v(400, 'truncated gzip', J, gzipSync(bad).subarray(0, 12), gzip),
    v(400, 'gzip of an invalid body', J, gzipSync(bad), gzip),
    v(400, 'deflate of an invalid body', J, deflateSync(bad), { 'content-encoding': 'deflate' }),
    v(413, 'gzip bomb', J, bomb, gzip),
    v(413, 'oversized', J, JSON.stringify({ x: 'y'.repeat(OVERSIZE) })),
    v(400, 'deep arrays', J, DEEP_JSON),
    v(400, 'deep objects', J, DEEP_OBJECT),
    v(400, 'truncated JSON', J, text.slice(0, Math.max(1, text.length - 3))),
    v(400, 'single quotes', J, "{'a':1}"),
    v(400, 'JSON null', J, 'null'),
    v(400, 'trailing garbage', J, `${text}x`),
    v(400, 'raw NUL byte', J, `${text.slice(0, -1)},"a":"\u0000"}`),
    v(400, 'escaped NUL in a valid field', J, withText('a\u0000b')),
    v(400, 'ESC in a valid field', J, withText('a\u001bb')),
    v(400, 'unpaired surrogate in a valid field', J, withText('a\ud800b')),
    v(400, 'BOM', J, `\ufeff${bad}`),
  ];
}

/** The wrong wrappings of a form-encoded request (OAuth token and response endpoints). */
export function formTransportVariants(valid: Record<string, string>): BodyVariant[] {
  const text = new URLSearchParams(valid).toString();
  const v = (expect: number, label: string, headers: Record<string, string>, body: string) => ({
    label,
    headers,
    body,
    expect: [expect],
  });
  return [
    v(415, 'JSON instead of a form', JSON_TYPE, JSON.stringify(valid)),
    v(415, 'text/plain', { 'content-type': 'text/plain' }, text),
    v(415, 'no content type', {}, text),
    v(400, 'empty form', FORM_TYPE, ''),
    v(415, 'charset utf-7', { 'content-type': 'application/x-www-form-urlencoded; charset=utf-7' }, text),
    v(415, 'Content-Encoding unknown', { ...FORM_TYPE, 'content-encoding': 'x-hostile' }, text),
    v(400, 'gzip header, plain body', { ...FORM_TYPE, 'content-encoding': 'gzip' }, text),
    v(413, 'oversized', FORM_TYPE, `${text}&x=${'y'.repeat(OVERSIZE)}`),
    v(413, 'too many fields', FORM_TYPE, Array.from({ length: 2000 }, (_, i) => `f${i}=1`).join('&')),
    v(400, 'NUL in a field', FORM_TYPE, `${text}&state=a%00b`),
    v(400, 'ESC in a field', FORM_TYPE, `${text}&state=a%1Bb`),
  ];
}
