import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startService } from './service.js';
import { SettingError } from './setting-error.js';

/** `npm start`: one node of the service, as ROLE says; SIGTERM or SIGINT drains it and exits 0. */
const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    // A setting the service cannot run with: say which and why, without a stack trace.
    console.error(`credservice: ${(err as Error).message}`);
    process.exit(1);
  }
})();
const logger = createLogger(config.LOG_LEVEL, config.LOG_FORMAT);

try {
  const service = await startService(config, logger);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    service.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
} catch (err) {
  // A setting found wrong while starting (a token's PIN, its label): which and why, no stack trace.
  if (err instanceof SettingError) {
    logger.fatal({ setting: err.setting }, `failed to start: ${err.message}`);
    console.error(`credservice: ${err.message}`);
  } else logger.fatal({ err }, 'failed to start');
  process.exit(1);
}
