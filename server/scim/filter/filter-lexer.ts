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
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (WHITESPACE.test(c)) {
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
