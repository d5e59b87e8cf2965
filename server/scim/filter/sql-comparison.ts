import { isUuid } from '../../persistence/uuid.js';
import type { Leaf } from './attribute-resolver.js';
import type { CompareOp, CompValue } from './filter-ast.js';
import { invalidFilter } from './filter-lexer.js';
import type { SqlParams } from './sql-params.js';

/**
 * One attribute compared with one value (RFC 7644 section 3.4.2.2). The result may be NULL when the
 * attribute is absent; the translator treats NULL as "no match" and guards it under `not`. `ne` is
 * `is distinct from`, so an absent attribute is "not equal": `x ne v` and `not (x eq v)` always agree.
 */
export function compareSql(leaf: Leaf, op: CompareOp, value: CompValue, params: SqlParams): string {
  if (leaf.type === 'boolean') return compareBoolean(leaf, op, value, params);
  if (typeof value !== 'string') {
    throw invalidFilter(
      `${leaf.label} is a ${leaf.type}; compare it with a "string", not ${JSON.stringify(value)}`,
    );
  }
  if (leaf.type === 'dateTime') return compareDateTime(leaf, op, value, params);
  if (leaf.form === 'uuid' && (op === 'eq' || op === 'ne')) {
    // uuid equality keeps the primary-key and membership indexes usable; a value that is no uuid
    // cannot equal one (and these columns are never null).
    if (!isUuid(value)) return op === 'eq' ? 'false' : 'true';
    return `${leaf.sql} ${op === 'eq' ? '=' : 'is distinct from'} ${params.add(value, 'uuid')}`;
  }
  const column = leaf.form === 'uuid' ? `${leaf.sql}::text` : leaf.sql;
  // lower() on both sides, not ilike, so the index on lower(user_name) serves `userName eq`.
  const fold = (sql: string) => (leaf.caseExact ? sql : `lower(${sql})`);
  const bound = (v: string) => fold(params.add(v, 'text'));
  switch (op) {
    case 'eq':
      return `${fold(column)} = ${bound(value)}`;
    case 'ne':
      return `${fold(column)} is distinct from ${bound(value)}`;
    case 'co':
      return `${fold(column)} like ${bound(`%${escapeLike(value)}%`)}`;
    case 'sw':
      return `${fold(column)} like ${bound(`${escapeLike(value)}%`)}`;
    case 'ew':
      return `${fold(column)} like ${bound(`%${escapeLike(value)}`)}`;
    default:
      // Lexical order by code point ("C"), the same on every server whatever its default collation.
      return `${fold(column)} collate "C" ${ORDER[op]} ${bound(value)}`;
  }
}

/** `pr`: RFC 7644 counts an empty string as absent. */
export function presentSql(leaf: Leaf): string {
  return leaf.form === 'text' && leaf.type === 'string' ? `${leaf.sql} <> ''` : `${leaf.sql} is not null`;
}

const ORDER = { gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/** Backslash is PostgreSQL's default LIKE escape, so no ESCAPE clause (and no quoted backslash) is needed. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, '\\$&');

function compareBoolean(leaf: Leaf, op: CompareOp, value: CompValue, params: SqlParams): string {
  if (op !== 'eq' && op !== 'ne')
    throw invalidFilter(`${leaf.label} is a boolean; only eq, ne and pr apply to it`);
  if (typeof value !== 'boolean') {
    throw invalidFilter(
      `${leaf.label} is a boolean; compare it with true or false, not ${JSON.stringify(value)}`,
    );
  }
  const bound = leaf.form === 'boolean' ? params.add(value, 'boolean') : params.add(String(value), 'text');
  return `${leaf.sql} ${op === 'eq' ? '=' : 'is distinct from'} ${bound}`;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/i;

/**
 * Timestamps compare at millisecond precision, the precision `meta.created` / `meta.lastModified` are
 * rendered with: `eq` matches the whole millisecond a client saw. Written as ranges over the bare
 * column, so an index on it still serves.
 */
function compareDateTime(leaf: Leaf, op: CompareOp, value: string, params: SqlParams): string {
  if (op === 'co' || op === 'sw' || op === 'ew') {
    throw invalidFilter(`${leaf.label} is a dateTime; co, sw and ew do not apply to it`);
  }
  const ms = DATE_TIME.test(value)
    ? Date.parse(/(?:[zZ]|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`)
    : Number.NaN;
  const year = new Date(ms).getUTCFullYear();
  if (Number.isNaN(ms) || year < 1 || year > 9999) {
    throw invalidFilter(
      `${leaf.label} is a dateTime; ${JSON.stringify(value)} is not one (e.g. "2011-05-13T04:42:34Z")`,
    );
  }
  const at = () => params.add(new Date(ms).toISOString(), 'timestamptz');
  const after = () => `${at()} + interval '1 millisecond'`;
  switch (op) {
    case 'eq':
      return `(${leaf.sql} >= ${at()} and ${leaf.sql} < ${after()})`;
    case 'ne':
      return `not coalesce(${leaf.sql} >= ${at()} and ${leaf.sql} < ${after()}, false)`;
    case 'gt':
      return `${leaf.sql} >= ${after()}`;
    case 'ge':
      return `${leaf.sql} >= ${at()}`;
    case 'lt':
      return `${leaf.sql} < ${at()}`;
    default:
      return `${leaf.sql} < ${after()}`; // le
  }
}
