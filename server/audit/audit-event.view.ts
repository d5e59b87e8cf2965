import type { AuditEvent } from './audit-event.entity.js';

/** An audit event as the admin API shows it and the export writes it, hash chain included. */
export const auditEventView = (e: AuditEvent) => ({
  id: e.id,
  seq: e.seq,
  tenant_id: e.tenantId,
  actor: e.actor,
  action: e.action,
  subject: e.subject ?? null,
  details: e.details,
  created_at: e.createdAt.toISOString(),
  prev_hash: e.prevHash,
  hash: e.hash,
});
