import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { conflict, notFound } from '../domain-errors.js';
import { transactionSql } from '../persistence/sql.js';
import { Issuance } from './issuance.entity.js';

export type IssuanceDecision = 'approve' | 'decline';

/**
 * The decision on an issuance awaiting approval (a deferred credential request), the integrator's
 * own (POST /approve, /decline) or an approver's presented approval (server/approvals), in
 * one transaction with its audit event (which raises issuance.approved or issuance.declined). One
 * conditional UPDATE decides, so two racing decisions cannot both win; the loser, and any issuance
 * not (or no longer) awaiting approval, gets a conflict. A declined issuance's payload and holder
 * keys are erased at once; the transaction_id's hash stays so the wallet is told it was declined.
 */
export async function decideIssuance(
  em: EntityManager,
  tenantId: string,
  issuanceId: string,
  decision: IssuanceDecision,
  actor: string,
  /** What else the audit event records of the decision (an approval's id and approver). */
  details: Record<string, unknown> = {},
): Promise<Issuance> {
  return em.transactional(async (tx) => {
    const set =
      decision === 'approve'
        ? "status = 'approved'"
        : "status = 'declined', payload = null, deferred_holder_keys = null";
    const [decided] = await transactionSql(tx).query<{ id: string }>(
      `update issuance set ${set}
       where id = $1 and tenant_id = $2 and status = 'awaiting_approval' and approval_expires_at > now()
       returning id`,
      [issuanceId, tenantId],
    );
    const issuance = await tx.findOne(Issuance, { id: issuanceId, tenantId }, { disableIdentityMap: true });
    if (!issuance) throw notFound(`issuance ${issuanceId}`);
    if (!decided)
      throw conflict(
        `issuance ${issuanceId} is not awaiting approval (it is ${issuance.status}${issuance.status === 'awaiting_approval' ? ', expired' : ''})`,
      );
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: decision === 'approve' ? 'issuance.approved' : 'issuance.declined',
      subject: issuanceId,
      details: { configuration: issuance.configurationId, ...details },
    });
    return issuance;
  });
}
