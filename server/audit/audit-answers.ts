import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditEventQuery } from '../../contract/admin/audit-event.js';
import type { Signer } from '../keys/signer.js';
import { auditEventView } from './audit-event.view.js';
import { listAuditEvents, verifyAuditChain } from './audit-query.js';

/**
 * The audit log's answers for one tenant, shared by the admin API (tenant in the path) and the
 * integrator API (tenant of the token), so the two can never say different things.
 */
export async function auditPageOf(em: EntityManager, tenantId: string, query: AuditEventQuery) {
  const page = await listAuditEvents(em, tenantId, {
    action: query.action,
    subject: query.subject,
    since: query.since ? new Date(query.since) : undefined,
    until: query.until ? new Date(query.until) : undefined,
    after: query.after,
    before: query.before,
    order: query.order,
    limit: query.limit,
  });
  return { items: page.items.map(auditEventView), next_cursor: page.nextCursor };
}

export async function chainVerificationOf(em: EntityManager, signer: Signer, tenantId: string) {
  const v = await verifyAuditChain(em, signer, tenantId);
  const cp = v.checkpoint;
  return {
    valid: v.valid,
    checked: v.checked,
    first_invalid_seq: v.firstInvalidSeq,
    reason: v.reason,
    unsealed: v.unsealed,
    oldest_unsealed_at: v.oldestUnsealedAt?.toISOString() ?? null,
    oldest_unsealed_age_ms: v.oldestUnsealedAgeMs,
    checkpoint: cp && {
      seq: cp.seq,
      hash: cp.hash,
      sealed_at: cp.sealedAt?.toISOString() ?? null,
      kid: cp.kid,
      valid: cp.valid,
    },
  };
}

export async function exportStateOf(em: EntityManager, tenantId: string) {
  const [row] = await em.execute<{ last_seq: number; exported_at: Date }[]>(
    'select last_seq, exported_at from audit_export_cursor where tenant_id = ?',
    [tenantId],
  );
  return {
    last_seq: row?.last_seq ?? 0,
    exported_at: row ? new Date(row.exported_at).toISOString() : null,
  };
}
