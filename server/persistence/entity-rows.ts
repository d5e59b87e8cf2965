import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Params } from './sql.js';

/**
 * An entity's table as hot paths write and read it with their own statements (persistence/sql.ts):
 * columns and casts taken from the ORM's metadata, so the mapping stays the entity's one definition.
 */
export interface EntityShape {
  table: string;
  props: { name: string; column: string; cast: '' | '::jsonb' | '::timestamptz' }[];
}

const shapes = new Map<unknown, EntityShape>();

export function entityShape<T extends object>(em: EntityManager, entity: EntityName<T>): EntityShape {
  let shape = shapes.get(entity);
  if (!shape) {
    const meta = em.getMetadata().get(entity);
    shape = {
      table: meta.tableName,
      props: meta.props
        .filter((p) => p.fieldNames?.length === 1 && p.persist !== false)
        .map((p) => ({
          name: p.name,
          column: p.fieldNames[0] as string,
          cast: p.runtimeType === 'Date' ? '::timestamptz' : p.columnTypes?.[0] === 'jsonb' ? '::jsonb' : '',
        })),
    };
    shapes.set(entity, shape);
  }
  return shape;
}

/**
 * `insert into <table> (<every column>) values (…)` of `row`, its values added to `params`; with
 * `gate` (a CTE of the same statement) `select … from <gate>`, so the row is written only if the
 * gate yields one.
 */
export function insertRowSql(shape: EntityShape, params: Params, row: object, gate?: string): string {
  const values = shape.props.map((p) => valueSql(p, params, row));
  const columns = shape.props.map((p) => p.column).join(', ');
  return gate
    ? `insert into ${shape.table} (${columns}) select ${values.join(', ')} from ${gate}`
    : `insert into ${shape.table} (${columns}) values (${values.join(', ')})`;
}

/** `column = $n, …` of `row`'s properties but those in `except` (its key, what never changes). */
export function setColumnsSql(shape: EntityShape, params: Params, row: object, except: string[]): string {
  return shape.props
    .filter((p) => !except.includes(p.name))
    .map((p) => `${p.column} = ${valueSql(p, params, row)}`)
    .join(', ');
}

const valueSql = (p: EntityShape['props'][number], params: Params, row: object) => {
  const value = (row as Record<string, unknown>)[p.name] ?? null;
  return `${params.add(p.cast === '::jsonb' && value !== null ? JSON.stringify(value) : value)}${p.cast}`;
};

/** The select list naming each column as its property. */
export const selectColumns = (shape: EntityShape) =>
  shape.props.map((p) => `${p.column} as "${p.name}"`).join(', ');

/** A row read with selectColumns as the entity has it: the ORM's pool hands timestamps over as text. */
export function entityFromRow<T>(shape: EntityShape, row: Record<string, unknown>): T {
  for (const p of shape.props)
    if (p.cast === '::timestamptz' && row[p.name] != null) row[p.name] = new Date(row[p.name] as string);
  return row as T;
}
