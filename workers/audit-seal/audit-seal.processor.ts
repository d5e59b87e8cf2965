import type { Processor } from '../job-context.js';
import { drainTenant, refusalLogger, sealPendingAudit } from './seal-pending-audit.js';

/**
 * Seals one tenant's unsealed audit events (payload `tenantId`), or every tenant's (no payload).
 * The worker nodes' sealing timer runs the same pass on its own; this job is how anything else asks
 * for sealing through the outbox. Idempotent: sealed events are no longer pending.
 */
export const auditSealProcessor: Processor = async ({ tenantId }, { em, signer, logger }) => {
  const refused = refusalLogger(logger);
  if (!tenantId) {
    await sealPendingAudit(em, signer, refused);
    return;
  }
  for (;;) {
    const drained = await drainTenant(em, signer, tenantId);
    if (drained.outcome.kind === 'refused') refused(tenantId, drained.outcome.reason);
    if (!drained.more) return;
  }
};
