import type { Logger } from 'pino';
import { recordEffect } from '../../server/outbox/outbox.js';
import type { Orm } from '../../server/persistence/orm.js';

/**
 * Every `intervalMs`, a worker node asks for an export of every tenant through the outbox. Several
 * worker nodes asking at once is harmless: exports of one tenant take turns and resume from the sink.
 */
export function scheduleAuditExport(orm: Orm, intervalMs: number, logger: Logger): () => void {
  if (intervalMs <= 0) return () => undefined;
  const timer = setInterval(() => {
    orm.em
      .fork()
      .transactional((tx) => recordEffect(tx, 'audit-export', {}))
      .catch((err) => logger.warn({ err }, 'could not schedule the audit export'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
