import type { ScimAttribute } from '../schema/scim-attributes.js';
import { mergeComplex, scalarEquals } from './attribute-values.js';
import { findAttribute, isPlainObject } from './scim-resource.js';

/**
 * Whether two values of a multi-valued attribute are the same value: the same `value` (and `type`
 * when both name one) for attributes that have a `value`, the same sub-attributes otherwise. A
 * `primary` or `display` difference does not make a different value.
 */
export function sameElement(attribute: ScimAttribute, a: unknown, b: unknown): boolean {
  if (attribute.type !== 'complex') return scalarEquals(attribute, a, b);
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const subs = attribute.subAttributes ?? [];
  const valueAttribute = findAttribute(subs, 'value');
  if (valueAttribute) {
    const typeAttribute = findAttribute(subs, 'type');
    const typesAgree =
      a.type === undefined || b.type === undefined || scalarEquals(typeAttribute, a.type, b.type);
    return scalarEquals(valueAttribute, a.value, b.value) && typesAgree;
  }
  return subs
    .filter((s) => s.name !== 'primary' && s.name !== 'display')
    .every((s) => scalarEquals(s, a[s.name], b[s.name]));
}

/**
 * RFC 7644 3.5.2.1: adding a value the attribute already holds changes nothing, so an added value that
 * is the same as a held one is merged into it (taking its new sub-attributes) instead of appended.
 */
export function addElements(attribute: ScimAttribute, list: unknown[], additions: readonly unknown[]): void {
  for (const addition of additions) {
    const held = list.find((element) => sameElement(attribute, element, addition));
    if (held === undefined) list.push(addition);
    else if (isPlainObject(held) && isPlainObject(addition)) mergeComplex(held, addition);
  }
}

/** A replacing list with its repeated values merged, as if each had been added in turn. */
export function withoutRepeats(attribute: ScimAttribute, elements: readonly unknown[]): unknown[] {
  const list: unknown[] = [];
  addElements(attribute, list, elements);
  return list;
}

export function withoutElements(
  attribute: ScimAttribute,
  list: readonly unknown[],
  removals: readonly unknown[],
): unknown[] {
  return list.filter((element) => !removals.some((removal) => sameElement(attribute, element, removal)));
}
