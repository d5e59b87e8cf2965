import type { Logger } from 'pino';
import type { Signer } from '../../server/keys/signer.js';
import type { Orm } from '../../server/persistence/orm.js';
import { Poller } from '../poller.js';
import { refusalLogger, sealPendingAudit } from './seal-pending-audit.js';

/**
 * Every `intervalMs`, a worker node seals whatever audit events were appended, on any node, in both
 * job modes (BullMQ or in-process). Requests do not ask for sealing: an outbox row per request would
 * double their audit writes and make each commit NOTIFY, so the lag is this interval plus a batch.
 * Several worker nodes share the work: each tenant is sealed by whichever takes its head lock.
 */
export function scheduleAuditSealing(
  orm: Orm,
  signer: Signer,
  intervalMs: number,
  logger: Logger,
): () => Promise<void> {
  if (intervalMs <= 0) return async () => undefined;
  const refused = refusalLogger(logger);
  const poller = new Poller(
    async () => {
      await sealPendingAudit(orm.em.fork(), signer, refused);
    },
    intervalMs,
    (err) => logger.warn({ err }, 'audit sealing pass failed; retrying at the next one'),
  );
  poller.start();
  return () => poller.stop();
}
