import type { ScimAttribute } from '../schema/scim-attributes.js';
import { ScimError } from '../scim-error.js';
import { findAttribute } from './scim-resource.js';

export type CompareOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le';
export type FilterLiteral = string | number | boolean | null;

/**
 * The filter inside a PATCH path's brackets (`emails[type eq "work"]`, RFC 7644 sections 3.4.2.2 and
 * 3.5.2), bound to the sub-attribute definitions it names. `self` marks `value` in a filter over a
 * multi-valued attribute of plain values (`schemas[value eq "…"]`), where it means the value itself.
 */
export type ValueFilter =
  | {
      kind: 'compare';
      attribute: ScimAttribute;
      self: boolean;
      operator: CompareOperator;
      value: FilterLiteral;
    }
  | { kind: 'present'; attribute: ScimAttribute; self: boolean }
  | { kind: 'and' | 'or'; left: ValueFilter; right: ValueFilter }
  | { kind: 'not'; filter: ValueFilter };

const COMPARE_OPERATORS = new Set<string>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le']);

type Token = { kind: 'word' | 'string'; text: string } | { kind: '(' | ')' };

const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c });
      i++;
    } else if (c === '"') {
      let end = i + 1;
      while (end < text.length && text.charAt(end) !== '"') end += text.charAt(end) === '\\' ? 2 : 1;
      if (end >= text.length) throw invalidFilter(`unterminated string in filter ${text}`);
      try {
        tokens.push({ kind: 'string', text: JSON.parse(text.slice(i, end + 1)) as string });
      } catch {
        throw invalidFilter(`bad string escape in filter ${text}`);
      }
      i = end + 1;
    } else {
      const start = i;
      while (i < text.length && !/[\s()"]/.test(text.charAt(i))) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i) });
    }
  }
  return tokens;
}

function bind(owner: ScimAttribute, name: string): { attribute: ScimAttribute; self: boolean } {
  if (owner.type !== 'complex') {
    if (name.toLowerCase() !== 'value') throw invalidFilter(`${owner.name} values have no attribute ${name}`);
    return { attribute: { ...owner, name: 'value', multiValued: false }, self: true };
  }
  const attribute = findAttribute(owner.subAttributes, name);
  if (!attribute) throw invalidFilter(`${owner.name} has no sub-attribute ${name}`);
  return { attribute, self: false };
}

function literal(token: Token | undefined): FilterLiteral {
  if (token?.kind === 'string') return token.text;
  if (token?.kind !== 'word') throw invalidFilter('a comparison needs a value');
  const word = token.text.toLowerCase();
  if (word === 'true' || word === 'false') return word === 'true';
  if (word === 'null') return null;
  const number = Number(token.text);
  if (token.text === '' || Number.isNaN(number)) throw invalidFilter(`${token.text} is not a filter value`);
  return number;
}

/** RFC 7644 3.4.2.2: booleans only compare for equality; strings only with strings, numbers with numbers. */
function checked(attribute: ScimAttribute, operator: CompareOperator, value: FilterLiteral): FilterLiteral {
  const equality = operator === 'eq' || operator === 'ne';
  if (value === null && equality) return null;
  if (attribute.type === 'boolean' && equality) {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  }
  const numeric = attribute.type === 'integer' || attribute.type === 'decimal';
  if (numeric && typeof value === 'number' && !['co', 'sw', 'ew'].includes(operator)) return value;
  const stringy = !numeric && attribute.type !== 'boolean' && attribute.type !== 'complex';
  if (stringy && typeof value === 'string') return value;
  throw invalidFilter(
    `${attribute.name} ${operator} ${JSON.stringify(value)} is not a comparison this attribute supports`,
  );
}

export function parseValueFilter(text: string, owner: ScimAttribute): ValueFilter {
  const tokens = tokenize(text);
  let at = 0;
  const word = () => {
    const token = tokens[at];
    return token?.kind === 'word' ? token.text.toLowerCase() : undefined;
  };
  const expect = (kind: '(' | ')') => {
    if (tokens[at]?.kind !== kind) throw invalidFilter(`expected "${kind}" in filter ${text}`);
    at++;
  };
  const comparison = (): ValueFilter => {
    const name = tokens[at++];
    if (name?.kind !== 'word') throw invalidFilter(`expected an attribute name in filter ${text}`);
    const { attribute, self } = bind(owner, name.text);
    const operator = word();
    at++;
    if (operator === 'pr') return { kind: 'present', attribute, self };
    if (!operator || !COMPARE_OPERATORS.has(operator))
      throw invalidFilter(`unknown operator in filter ${text}`);
    const op = operator as CompareOperator;
    return {
      kind: 'compare',
      attribute,
      self,
      operator: op,
      value: checked(attribute, op, literal(tokens[at++])),
    };
  };
  const unary = (): ValueFilter => {
    if (tokens[at]?.kind === '(' || word() === 'not') {
      const negated = word() === 'not';
      if (negated) at++;
      expect('(');
      const inner = disjunction();
      expect(')');
      return negated ? { kind: 'not', filter: inner } : inner;
    }
    return comparison();
  };
  const conjunction = (): ValueFilter => {
    let left = unary();
    while (word() === 'and' && ++at) left = { kind: 'and', left, right: unary() };
    return left;
  };
  const disjunction = (): ValueFilter => {
    let left = conjunction();
    while (word() === 'or' && ++at) left = { kind: 'or', left, right: conjunction() };
    return left;
  };
  if (tokens.length === 0) throw invalidFilter('the filter in brackets is empty');
  const filter = disjunction();
  if (at !== tokens.length) throw invalidFilter(`unexpected text in filter ${text}`);
  return filter;
}
