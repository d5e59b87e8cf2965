import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import pg from 'pg';
import { BeforeCommitRunner } from './before-commit.js';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

export type Orm = MikroORM;

export interface OrmOptions {
  url: string;
  poolMax: number;
}

export function ormConfig(o: OrmOptions): Options {
  return {
    clientUrl: o.url,
    entities,
    subscribers: [new BeforeCommitRunner()],
    extensions: [Migrator],
    pool: { min: 0, max: o.poolMax },
    migrations: {
      migrationsList: migrations,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    // Identity-map leakage between requests is a bug, not a convenience: every request and job forks.
    allowGlobalContext: false,
    debug: false,
    // The service logs what it applied through pino; MikroORM's console logger stays quiet.
    logger: () => undefined,
  };
}

export async function openOrm(o: OrmOptions): Promise<Orm> {
  return MikroORM.init(ormConfig(o));
}

const MIGRATION_LOCK = 727_001;

/**
 * Applies pending migrations. Several nodes may start at once, so the run holds a session-level
 * advisory lock on a connection of its own (a pooled one could release it on another session).
 */
export async function migrate(orm: Orm, url: string): Promise<string[]> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const done = await orm.migrator.up();
    return done.map((m) => m.name);
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.end();
  }
}
