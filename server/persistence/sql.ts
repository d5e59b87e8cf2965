import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Transaction } from 'kysely';
import type pg from 'pg';
import type { Orm } from './orm.js';

/**
 * One SQL statement with numbered parameters ($1, $2, …), sent as such: values never become part of
 * the SQL text. Hot paths use this instead of the ORM's unit of work: a request that knows what to
 * change says it in one statement (a conditional UPDATE … RETURNING, a multi-row INSERT) instead of
 * loading entities, diffing them and flushing.
 */
export interface Sql {
  query<R>(text: string, values?: readonly unknown[]): Promise<R[]>;
}

/** The numbered parameters of a statement composed of parts: each part adds its values and writes the `$n` it gets. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Statement names by SQL text: the same text is parsed and planned once per connection. */
const names = new Map<string, string>();
const nameOf = (text: string) => {
  let name = names.get(text);
  if (!name) {
    name = `q${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
};

/**
 * Statements outside any transaction, on the ORM's own pool (no second pool, so DATABASE_POOL_MAX
 * stays the whole budget), as named prepared statements.
 */
export async function poolSql(orm: Orm): Promise<Sql> {
  const pool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
  pool.on('connect', prepareNamedOn);
  return {
    async query<R>(text: string, values: readonly unknown[] = []) {
      const result = await pool.query({ name: nameOf(text), text, values: [...values] });
      return result.rows as R[];
    },
  };
}

/**
 * Statements inside the caller's ORM transaction, on its connection: what they change commits or
 * rolls back with everything else the transaction did, including its audit events.
 */
export function transactionSql(tx: EntityManager): Sql {
  const context = tx.isInTransaction() ? tx.getTransactionContext<Transaction<unknown>>() : undefined;
  if (!context) throw new Error('transactionSql needs the transaction of the change');
  return {
    async query<R>(text: string, values: readonly unknown[] = []) {
      nameOf(text);
      const result = await context.executeQuery(CompiledQuery.raw(text, [...values]));
      return result.rows as R[];
    },
  };
}

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Inside an ORM transaction the driver gets this module's statements as text and values (the query
 * builder the ORM runs on has no statement names), so PostgreSQL would parse and plan each one
 * again. Each new connection of the pool therefore sends a statement this module knows under its
 * name: it is then prepared once per connection there too. Anything else passes through unchanged.
 */
function prepareNamedOn(client: pg.PoolClient) {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (text, values, callback) => {
    const name = typeof text === 'string' && Array.isArray(values) ? names.get(text) : undefined;
    return name ? query({ name, text, values }, callback) : query(text, values, callback);
  };
}
