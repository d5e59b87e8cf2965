/**
 * Bound parameters of a generated condition. Two placeholder styles, because the two ways this
 * service reaches PostgreSQL differ: MikroORM's `em.execute(sql, params)` takes `?` (and reads `??` as
 * an identifier and `\?` as a literal `?`), node-postgres takes `$1, $2, …`. Generated SQL text never
 * contains a `?` other than a placeholder, and no two placeholders touch, so neither style misreads it.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /** `firstParam` undefined: `?` placeholders; a number n: `$n`, `$n+1`, … */
  constructor(private readonly firstParam?: number) {
    if (firstParam !== undefined && (!Number.isInteger(firstParam) || firstParam < 1)) {
      throw new Error(`firstParam must be a positive integer, not ${firstParam}`);
    }
  }

  /** Binds `value` and returns its placeholder, cast so PostgreSQL never has to guess its type. */
  add(value: string | boolean, type: 'text' | 'uuid' | 'boolean' | 'timestamptz'): string {
    this.values.push(value);
    const placeholder = this.firstParam === undefined ? '?' : `$${this.firstParam + this.values.length - 1}`;
    return `${placeholder}::${type}`;
  }
}

/** A constant of this module (a jsonb key, a schema URN) as an SQL string literal; never user input. */
export function sqlLiteral(text: string): string {
  if (text.includes('?')) throw new Error(`'${text}' would read as a placeholder`);
  return `'${text.replaceAll("'", "''")}'`;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,40}$/;

/** The caller's table alias is spliced into SQL, so it must be a plain identifier. */
export function checkAlias(alias: string): string {
  if (!IDENTIFIER.test(alias)) throw new Error(`'${alias}' is not a plain SQL identifier`);
  return alias;
}
