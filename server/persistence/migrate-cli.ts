import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startEmbeddedPostgres } from './embedded/embedded-postgres.js';
import { migrate, openOrm } from './orm.js';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, config.LOG_FORMAT);
const embedded = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(config.dataDir, logger);
const url = config.DATABASE_URL ?? (embedded?.url as string);
const orm = await openOrm({ url, poolMax: 2 });
try {
  const applied = await migrate(orm, url);
  logger.info({ migrations: applied }, applied.length ? 'migrations applied' : 'database is up to date');
} finally {
  await orm.close();
  await embedded?.stop();
}
