import type { ScimAttribute } from '../schema/scim-attributes.js';
import { ScimError } from '../scim-error.js';
import { findAttribute, isPlainObject, type JsonObject } from './scim-resource.js';

/**
 * Turns the values a client sends into the stored form of an attribute: the right JSON type, canonical
 * sub-attribute names, and `undefined` for "no value". A complex value becomes a patch whose `null`
 * members mean "unset this sub-attribute".
 */

const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');

/** Both mean "unset": RFC 7643 2.5 for null, and Entra clears attributes with "". */
export function isUnset(raw: unknown): boolean {
  return raw === undefined || raw === null || raw === '';
}

/** A single-valued target takes a one-element array as its element (Entra wraps the manager so). */
export function single(raw: unknown, where: string): unknown {
  if (!Array.isArray(raw)) return raw;
  if (raw.length > 1) throw invalidValue(`${where} takes one value, not ${raw.length}`);
  return raw[0] ?? null;
}

export function normalizeScalar(attribute: ScimAttribute, raw: unknown, where: string): unknown {
  if (isUnset(raw)) return undefined;
  // An object or array is named, not printed: printing a deeply nested one overflows the stack.
  const shown = Array.isArray(raw) ? 'an array' : typeof raw === 'object' ? 'an object' : JSON.stringify(raw);
  const wrong = () => invalidValue(`${where} must be a ${attribute.type}, not ${shown}`);
  switch (attribute.type) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      // Entra sends "True" and "False" for booleans.
      if (typeof raw === 'string' && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
      throw wrong();
    case 'integer':
      if (Number.isInteger(raw)) return raw;
      throw wrong();
    case 'decimal':
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      throw wrong();
    case 'dateTime':
      if (typeof raw === 'string' && !Number.isNaN(Date.parse(raw))) return raw;
      throw wrong();
    case 'complex':
      throw wrong();
    default:
      if (typeof raw === 'string') return raw;
      throw wrong();
  }
}

export function hasValueSubAttribute(attribute: ScimAttribute): boolean {
  return attribute.subAttributes?.some((s) => s.name === 'value') ?? false;
}

export function normalizeComplexPatch(attribute: ScimAttribute, raw: unknown, where: string): JsonObject {
  // A bare value stands for { value } (Entra's manager: "value": "<id>").
  const object =
    !isPlainObject(raw) && !Array.isArray(raw) && hasValueSubAttribute(attribute) ? { value: raw } : raw;
  if (!isPlainObject(object)) throw invalidValue(`${where} must be an object of sub-attributes`);
  const patch: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    const sub = findAttribute(attribute.subAttributes, key);
    if (!sub) throw invalidValue(`${where} has no sub-attribute ${key}`);
    // RFC 7644 3.5.1: read-only values a client sends along are ignored (Entra's manager displayName).
    if (sub.mutability === 'readOnly') continue;
    patch[sub.name] = normalizeScalar(sub, value, `${where}.${sub.name}`) ?? null;
  }
  return patch;
}

/** Sub-attributes that only qualify a value; a complex value with nothing else says nothing. */
const QUALIFIERS = new Set(['type', 'primary', 'display']);

/** A complex value that no longer holds anything: no `value` where it has one, or only qualifiers. */
export function isVacant(attribute: ScimAttribute, value: unknown): boolean {
  if (attribute.type !== 'complex') return value === undefined || value === null || value === '';
  if (!isPlainObject(value)) return true;
  if (hasValueSubAttribute(attribute)) return value.value === undefined || value.value === null;
  return Object.keys(value).every((key) => QUALIFIERS.has(key));
}

/** The elements a multi-valued target receives; a single element is taken as a list of one. */
export function normalizeElements(attribute: ScimAttribute, raw: unknown, where: string): unknown[] {
  if (isUnset(raw)) return [];
  const items = Array.isArray(raw) ? raw : [raw];
  const elements = items.map((item, i) => {
    if (attribute.type !== 'complex') return normalizeScalar(attribute, item, `${where}[${i}]`);
    const patch = normalizeComplexPatch(attribute, item, `${where}[${i}]`);
    return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== null));
  });
  return elements.filter((element) => !isVacant(attribute, element));
}

/** Sub-attributes that describe the `value` beside them and are stale once it changes. */
const DESCRIPTIVE = ['$ref', 'display', 'displayName'];

/**
 * Applies a complex patch in place: sub-attributes it names are set (or unset for null), the others
 * stay (RFC 7644 3.5.2.3) — except descriptions of a `value` the patch changes, which would lie.
 */
export function mergeComplex(target: JsonObject, patch: JsonObject): void {
  if ('value' in patch && patch.value !== target.value) {
    for (const key of DESCRIPTIVE) if (!(key in patch)) delete target[key];
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete target[key];
    else target[key] = value;
  }
}

/** Equality of two stored values of one attribute, honouring caseExact for strings. */
export function scalarEquals(attribute: ScimAttribute | undefined, a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && !attribute?.caseExact) {
    return a.toLowerCase() === b.toLowerCase();
  }
  return a === b;
}
