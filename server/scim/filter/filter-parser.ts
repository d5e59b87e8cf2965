import {
  type AttrPath,
  COMPARE_OPS,
  type CompareOp,
  type CompValue,
  FILTER_LIMITS,
  type FilterNode,
} from './filter-ast.js';
import { invalidFilter, type Token, tokenize } from './filter-lexer.js';

/**
 * Parses a SCIM filter (RFC 7644 section 3.4.2.2) into a tree. Precedence, loosest first: `or`, `and`,
 * then `not (…)`, `(…)` and attribute expressions. Keywords and operators are case-insensitive, as RFC
 * 5234 quoted strings are. Anything malformed or over `FILTER_LIMITS` throws a 400 `invalidFilter`
 * whose detail says what is wrong at which 1-based position.
 */
export function parseFilter(text: string): FilterNode {
  if (text.length > FILTER_LIMITS.maxLength) {
    throw invalidFilter(
      `the filter is ${text.length} characters long; at most ${FILTER_LIMITS.maxLength} are accepted`,
    );
  }
  const parser = new FilterParser(tokenize(text));
  if (parser.peek().kind === 'end') throw invalidFilter('the filter is empty');
  const node = parser.parseOr(undefined);
  parser.expectEnd();
  return node;
}

/** A lone attribute path, such as a `sortBy` value. */
export function parseAttrPath(text: string): AttrPath {
  const tokens = tokenize(text);
  const [first, second] = tokens;
  if (first?.kind !== 'word' || second?.kind !== 'end')
    throw invalidFilter(`'${text}' is not an attribute path`);
  return attrPathOf(first.text, first.pos);
}

const NAME = /^\$?[A-Za-z][A-Za-z0-9_-]*$/;

/** Splits `[URI ":"] ATTRNAME ["." subAttr]`: the URI ends at the last colon, as names hold none. */
function attrPathOf(text: string, pos: number): AttrPath {
  const colon = text.lastIndexOf(':');
  const names = text.slice(colon + 1).split('.');
  const [attr, subAttr] = names;
  if (colon === 0 || names.length > 2 || attr === undefined || !names.every((n) => NAME.test(n))) {
    throw invalidFilter(`'${text}' at position ${pos} is not an attribute path`);
  }
  return { ...(colon > 0 ? { uri: text.slice(0, colon) } : {}), attr, ...(subAttr ? { subAttr } : {}), text };
}

function describe(t: Token): string {
  if (t.kind === 'end') return 'the end of the filter';
  if (t.kind === 'word') return `'${t.text}'`;
  if (t.kind === 'number') return t.text;
  if (t.kind === 'string') return JSON.stringify(t.value.length > 40 ? `${t.value.slice(0, 40)}…` : t.value);
  return `'${t.kind}'`;
}

const isWord = (t: Token, ...words: string[]) => t.kind === 'word' && words.includes(t.text.toLowerCase());

class FilterParser {
  private index = 0;
  private nodes = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[Math.min(this.index, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const t = this.peek();
    this.index++;
    return t;
  }

  expectEnd(): void {
    const t = this.peek();
    if (t.kind !== 'end')
      throw invalidFilter(`expected 'and', 'or' or the end at position ${t.pos}, found ${describe(t)}`);
  }

  /** `outer` names the attribute of the enclosing value filter, inside `[…]`. */
  parseOr(outer: string | undefined): FilterNode {
    return this.chain('or', () => this.chain('and', () => this.parseTerm(outer)));
  }

  private chain(kind: 'and' | 'or', operand: () => FilterNode): FilterNode {
    const filters = [operand()];
    while (isWord(this.peek(), kind)) {
      this.next();
      filters.push(operand());
    }
    return filters.length === 1 ? (filters[0] as FilterNode) : this.node({ kind, filters });
  }

  private parseTerm(outer: string | undefined): FilterNode {
    const t = this.next();
    if (t.kind === '(') return this.enclosed(t, ')', () => this.parseOr(outer));
    if (t.kind === 'word' && isWord(t, 'not') && this.peek().kind === '(') {
      const open = this.next();
      return this.node({ kind: 'not', filter: this.enclosed(open, ')', () => this.parseOr(outer)) });
    }
    if (t.kind !== 'word') {
      throw invalidFilter(`expected an attribute, '(' or 'not' at position ${t.pos}, found ${describe(t)}`);
    }
    const path = attrPathOf(t.text, t.pos);
    if (isWord(t, 'not') && !isWord(this.peek(), 'pr', ...COMPARE_OPS)) {
      throw invalidFilter(`'not' at position ${t.pos} must be followed by a filter in parentheses`);
    }
    if (outer !== undefined && (path.uri !== undefined || path.subAttr !== undefined)) {
      throw invalidFilter(
        `inside ${outer}[…] name a sub-attribute of ${outer}, such as value; found '${t.text}' at position ${t.pos}`,
      );
    }
    if (this.peek().kind !== '[') return this.attributeExpression(path);
    if (outer !== undefined)
      throw invalidFilter(`value filters cannot be nested: '[' at position ${this.peek().pos}`);
    if (path.subAttr !== undefined) {
      throw invalidFilter(
        `'${t.text}' at position ${t.pos} has a sub-attribute, so it takes no value filter`,
      );
    }
    const open = this.next();
    const inner = this.enclosed(open, ']', () => this.parseOr(t.text));
    if (this.peek().kind !== '.') return this.node({ kind: 'valuePath', path, filter: inner });
    // `emails[type eq "work"].value eq "x"`: the same element must satisfy both parts.
    const dot = this.next();
    const sub = this.next();
    if (sub.kind !== 'word' || !NAME.test(sub.text)) {
      throw invalidFilter(
        `expected a sub-attribute name after '.' at position ${dot.pos}, found ${describe(sub)}`,
      );
    }
    const trailing = this.attributeExpression({ attr: sub.text, text: sub.text });
    return this.node({
      kind: 'valuePath',
      path,
      filter: this.node({ kind: 'and', filters: [inner, trailing] }),
    });
  }

  /** `attrPath "pr"` or `attrPath compareOp compValue`, once the path is read. */
  private attributeExpression(path: AttrPath): FilterNode {
    const op = this.next();
    if (isWord(op, 'pr')) return this.node({ kind: 'present', path });
    if (op.kind !== 'word' || !isWord(op, ...COMPARE_OPS)) {
      throw invalidFilter(
        `expected an operator (eq, ne, co, sw, ew, gt, ge, lt, le or pr) after '${path.text}' at position ${op.pos}, found ${describe(op)}`,
      );
    }
    return this.node({
      kind: 'compare',
      path,
      op: op.text.toLowerCase() as CompareOp,
      value: this.value(op.text),
    });
  }

  private value(after: string): CompValue {
    const t = this.next();
    if (t.kind === 'string' || t.kind === 'number') return t.value;
    if (isWord(t, 'true')) return true;
    if (isWord(t, 'false')) return false;
    if (isWord(t, 'null')) return null;
    throw invalidFilter(
      `expected a value ("string", number, true, false or null) after '${after}' at position ${t.pos}, found ${describe(t)}`,
    );
  }

  private enclosed(open: Token, close: ')' | ']', body: () => FilterNode): FilterNode {
    if (++this.depth > FILTER_LIMITS.maxDepth) {
      throw invalidFilter(
        `the filter nests deeper than ${FILTER_LIMITS.maxDepth} levels at position ${open.pos}`,
      );
    }
    const node = body();
    const t = this.next();
    if (t.kind !== close) {
      throw invalidFilter(
        `expected '${close}' to close the '${open.kind}' at position ${open.pos}, found ${describe(t)} at position ${t.pos}`,
      );
    }
    this.depth--;
    return node;
  }

  private node<T extends FilterNode>(node: T): T {
    if (++this.nodes > FILTER_LIMITS.maxNodes) {
      throw invalidFilter(`the filter has more than ${FILTER_LIMITS.maxNodes} expressions`);
    }
    return node;
  }
}
