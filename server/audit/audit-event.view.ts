/**
 * An audit event as the queries return it: sealed (from the chain, with seq and hashes) or still
 * unsealed (appended, waiting for the sealer: seq and hashes null).
 */
export interface AuditEventRecord {
  id: string;
  seq: number | null;
  tenantId: string;
  actor: string;
  action: string;
  subject?: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
  prevHash: string | null;
  hash: string | null;
}

/** An audit event as the admin API shows it and the export writes it, hash chain included. */
export const auditEventView = <E extends AuditEventRecord>(e: E) => ({
  id: e.id,
  seq: e.seq as E['seq'],
  tenant_id: e.tenantId,
  actor: e.actor,
  action: e.action,
  subject: e.subject ?? null,
  details: e.details,
  created_at: e.createdAt.toISOString(),
  prev_hash: e.prevHash as E['prevHash'],
  hash: e.hash as E['hash'],
});
