import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { endIssuance } from './change-credential-status.js';
import { Issuance } from './issuance.entity.js';

/**
 * Withdraws an issuance of the tenant: its offer stops working (payload erased) and every credential
 * issued from it that is still valid or suspended is revoked, in one transaction with the audit
 * events. Withdrawing what is already over (issued and all revoked, withdrawn, declined) changes
 * nothing but is still answered with the issuance.
 */
export async function withdrawIssuance(
  em: EntityManager,
  tenantId: string,
  issuanceId: string,
  actor: string,
  reason: string | undefined,
) {
  return em.transactional(async (tx) => {
    const issuance = await tx.findOne(Issuance, { id: issuanceId, tenantId });
    if (!issuance) throw notFound(`issuance ${issuanceId}`);
    const before = issuance.status;
    const revoked = await endIssuance(tx, issuance.id, actor, reason ?? 'withdrawn');
    await tx.refresh(issuance);
    if (before !== issuance.status || revoked.length) {
      await appendAuditEvent(tx, {
        tenantId,
        actor,
        action: 'issuance.withdrawn',
        subject: issuance.id,
        details: { from: before, revoked_credentials: revoked, ...(reason ? { reason } : {}) },
      });
    }
    return issuance;
  });
}
