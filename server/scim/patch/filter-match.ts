import type { ScimAttribute } from '../schema/scim-attributes.js';
import { isAssigned, isPlainObject } from './scim-resource.js';
import type { CompareOperator, FilterLiteral, ValueFilter } from './value-filter.js';

/** Evaluates a value filter against one value of a multi-valued attribute, in memory. */
export function matchesFilter(filter: ValueFilter, element: unknown): boolean {
  switch (filter.kind) {
    case 'and':
      return matchesFilter(filter.left, element) && matchesFilter(filter.right, element);
    case 'or':
      return matchesFilter(filter.left, element) || matchesFilter(filter.right, element);
    case 'not':
      return !matchesFilter(filter.filter, element);
    case 'present':
      return isAssigned(read(filter, element));
    case 'compare':
      return compare(filter.attribute, filter.operator, read(filter, element), filter.value);
  }
}

function read(filter: { attribute: ScimAttribute; self: boolean }, element: unknown): unknown {
  if (filter.self) return element;
  return isPlainObject(element) ? element[filter.attribute.name] : undefined;
}

function ordered(operator: CompareOperator, difference: number): boolean {
  switch (operator) {
    case 'gt':
      return difference > 0;
    case 'lt':
      return difference < 0;
    case 'ge':
      return difference >= 0;
    case 'le':
      return difference <= 0;
    case 'ne':
      return difference !== 0;
    default:
      return difference === 0;
  }
}

function compare(attribute: ScimAttribute, operator: CompareOperator, actual: unknown, value: FilterLiteral) {
  if (value === null) return operator === 'eq' ? !isAssigned(actual) : isAssigned(actual);
  // An absent value equals nothing, so only "ne" holds for it.
  if (actual === undefined || actual === null) return operator === 'ne';
  if (typeof value === 'boolean') {
    const stored = typeof actual === 'string' ? actual.toLowerCase() === 'true' : actual;
    return ordered(operator, stored === value ? 0 : 1);
  }
  if (typeof value === 'number') {
    return typeof actual === 'number' ? ordered(operator, actual - value) : operator === 'ne';
  }
  if (typeof actual !== 'string') return operator === 'ne';
  if (attribute.type === 'dateTime' && !['co', 'sw', 'ew'].includes(operator)) {
    const [a, b] = [Date.parse(actual), Date.parse(value)];
    if (!Number.isNaN(a) && !Number.isNaN(b)) return ordered(operator, a - b);
  }
  // RFC 7644 3.4.2.2: strings compare case-insensitively unless the attribute is caseExact.
  const a = attribute.caseExact ? actual : actual.toLowerCase();
  const b = attribute.caseExact ? value : value.toLowerCase();
  if (operator === 'co') return a.includes(b);
  if (operator === 'sw') return a.startsWith(b);
  if (operator === 'ew') return a.endsWith(b);
  return ordered(operator, a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The sub-attribute values a filter pins down when it is nothing but `eq` tests joined by `and`
 * (`type eq "work"`), so that a value it fails to find can be created from it. Undefined otherwise.
 */
export function equalityConstraints(
  filter: ValueFilter,
): { attribute: ScimAttribute; value: string | number | boolean }[] | undefined {
  if (filter.kind === 'compare') {
    if (filter.operator !== 'eq' || filter.self || filter.value === null) return undefined;
    return [{ attribute: filter.attribute, value: filter.value }];
  }
  if (filter.kind !== 'and') return undefined;
  const left = equalityConstraints(filter.left);
  const right = equalityConstraints(filter.right);
  if (!left || !right) return undefined;
  const conflicting = right.some((r) => left.some((l) => l.attribute === r.attribute && l.value !== r.value));
  return conflicting ? undefined : [...left, ...right];
}
