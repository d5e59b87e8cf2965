import { ScimError } from '../scim-error.js';

/**
 * Splits SCIM filter text into tokens. A word is an attribute path, an operator or a keyword: which one
 * depends on where it stands, so the parser decides. Words may hold `:` and `.` because attribute paths
 * carry schema URNs (`urn:ietf:params:scim:schemas:core:2.0:User:userName`).
 */
export type Token =
  | { kind: 'word'; text: string; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; pos: number; text: string }
  | { kind: '(' | ')' | '[' | ']' | '.' | 'end'; pos: number };

/** Positions in messages are 1-based characters of the filter, as a person counts them. */
export function invalidFilter(detail: string): ScimError {
  return new ScimError(400, detail, 'invalidFilter');
}

const WORD_START = /[A-Za-z$_]/;
const WORD_CHAR = /[A-Za-z0-9$_\-.:]/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\r\n]/;
const PUNCTUATION = new Set(['(', ')', '[', ']', '.']);
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const COMPARE_OPS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
const BARE_END = /[ \t\r\n)\]]/;

/**
 * A comparison value written without quotes (`userName sw O`, `meta.created gt 2015-10-10T14:38:21Z`,
 * `emails.value co example.com`). RFC 7644 requires quotes, but Microsoft's SCIM test collection and
 * some clients leave them out; a bare value that is not a keyword or a number is taken as a string.
 */
function bareValue(text: string, start: number): { token: Token; end: number } {
  let end = start;
  while (end < text.length && !BARE_END.test(text.charAt(end))) end++;
  const raw = text.slice(start, end);
  NUMBER.lastIndex = 0;
  if (/^(true|false|null)$/i.test(raw)) return { token: { kind: 'word', text: raw, pos: start + 1 }, end };
  const number = NUMBER.exec(raw)?.[0];
  if (number === raw)
    return { token: { kind: 'number', value: Number(raw), pos: start + 1, text: raw }, end };
  return { token: { kind: 'string', value: raw, pos: start + 1 }, end };
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    const previous = tokens.at(-1);
    const afterOperator = previous?.kind === 'word' && COMPARE_OPS.has(previous.text.toLowerCase());
    if (afterOperator && !WHITESPACE.test(c) && c !== '"' && c !== '(' && c !== ')') {
      const { token, end } = bareValue(text, i);
      tokens.push(token);
      i = end;
    } else if (WHITESPACE.test(c)) {
      i++;
    } else if (PUNCTUATION.has(c)) {
      tokens.push({ kind: c as '(' | ')' | '[' | ']' | '.', pos: i + 1 });
      i++;
    } else if (c === '"') {
      const { value, end } = readString(text, i);
      tokens.push({ kind: 'string', value, pos: i + 1 });
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text)?.[0];
      if (!match || WORD_CHAR.test(text.charAt(i + match.length))) {
        throw invalidFilter(`malformed number at position ${i + 1}`);
      }
      tokens.push({ kind: 'number', value: Number(match), pos: i + 1, text: match });
      i += match.length;
    } else if (WORD_START.test(c)) {
      let end = i + 1;
      while (end < text.length && WORD_CHAR.test(text.charAt(end))) end++;
      tokens.push({ kind: 'word', text: text.slice(i, end), pos: i + 1 });
      i = end;
    } else {
      const hint = c === "'" ? '; strings are written in double quotes' : '';
      throw invalidFilter(`unexpected character '${c}' at position ${i + 1}${hint}`);
    }
  }
  tokens.push({ kind: 'end', pos: text.length + 1 });
  return tokens;
}

/** A JSON string (RFC 8259 section 7) starting at the quote at `start`. */
function readString(text: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '"') return { value, end: i + 1 };
    if (c === '\\') {
      const e = text.charAt(i + 1);
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        value += simple;
        i += 2;
        continue;
      }
      const hex = text.slice(i + 2, i + 6);
      if (e !== 'u' || !/^[0-9A-Fa-f]{4}$/.test(hex)) {
        throw invalidFilter(`invalid escape '\\${e}' in the string at position ${start + 1}`);
      }
      const code = Number.parseInt(hex, 16);
      // PostgreSQL text cannot hold NUL; refusing it here keeps it from becoming a 500 later.
      if (code === 0) throw invalidFilter(`the string at position ${start + 1} contains \\u0000`);
      value += String.fromCharCode(code);
      i += 6;
      continue;
    }
    if (c < ' ') throw invalidFilter(`unescaped control character in the string at position ${start + 1}`);
    value += c;
    i++;
  }
  throw invalidFilter(`the string at position ${start + 1} is not closed by a '"'`);
}
