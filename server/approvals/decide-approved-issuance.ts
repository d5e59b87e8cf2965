import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { DomainError } from '../domain-errors.js';
import { decideIssuance } from '../issuance/decide-issuance.js';
import type { PresentationSession } from '../verification/presentation-session.entity.js';

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * Who approved, as the presented credential names them: the employee credential's mandatee e-mail
 * (or name), else the plain claims a PID or other credential discloses.
 */
export function approverOf(claims: Record<string, unknown>): string | undefined {
  const person = (
    typeof claims.mandatee === 'object' && claims.mandatee !== null ? claims.mandatee : claims
  ) as Record<string, unknown>;
  const name = [text(person.firstName ?? person.given_name), text(person.lastName ?? person.family_name)]
    .filter(Boolean)
    .join(' ');
  return text(person.email) ?? (name || undefined) ?? text(claims.sub);
}

/**
 * An approval of an issuance (POST /api/v1/issuances/{id}/approval) has just settled approved: the
 * issuance is approved as POST /approve approves it (decideIssuance, one conditional UPDATE), its
 * audit event naming the approval and the approver, which raises issuance.approved with the
 * approval's id. The approval stands on its own (its receipt is signed): when the issuance was
 * decided, withdrawn or expired meanwhile, nothing changes but an audit event that says so.
 */
export async function decideApprovedIssuance(
  em: EntityManager,
  session: Pick<PresentationSession, 'tenantId' | 'approvalId' | 'approval'>,
  claims: Record<string, unknown>,
): Promise<void> {
  const issuanceId = session.approval?.issuanceId;
  if (!issuanceId || !session.approvalId) return;
  const approver = approverOf(claims);
  const actor = `approval:${session.approvalId}`;
  const details = { approval: session.approvalId, ...(approver ? { approver } : {}) };
  try {
    await decideIssuance(em, session.tenantId, issuanceId, 'approve', actor, details);
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    await em.transactional((tx) =>
      appendAuditEvent(tx, {
        tenantId: session.tenantId,
        actor,
        action: 'issuance.approval_not_applied',
        subject: issuanceId,
        details: { ...details, reason: e.message },
      }),
    );
  }
}
