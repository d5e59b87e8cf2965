import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEvent } from './audit-event.entity.js';
import { canonicalJson } from './canonical-json.js';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntry {
  tenantId: string;
  actor: string;
  action: string;
  subject?: string | null;
  details?: Record<string, unknown>;
}

type Hashed = Pick<
  AuditEvent,
  'tenantId' | 'seq' | 'actor' | 'action' | 'subject' | 'details' | 'createdAt' | 'prevHash'
>;

export function hashEvent(e: Hashed): string {
  const body = canonicalJson({
    tenant: e.tenantId,
    seq: e.seq,
    actor: e.actor,
    action: e.action,
    subject: e.subject,
    details: e.details,
    at: e.createdAt.toISOString(),
    prev: e.prevHash,
  });
  return createHash('sha256').update(body).digest('hex');
}

/**
 * Appends an event to the tenant's chain inside the caller's transaction, so the event exists exactly
 * when the change it records does. A transaction-scoped advisory lock per tenant orders concurrent
 * writers; other tenants are not held up.
 */
export async function appendAuditEvent(tx: EntityManager, entry: AuditEntry): Promise<AuditEvent> {
  if (!tx.isInTransaction()) throw new Error('appendAuditEvent must run inside a transaction');
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`audit:${entry.tenantId}`]);
  const last = await tx.execute<{ seq: number; hash: string }[]>(
    'select seq, hash from audit_event where tenant_id = ? order by seq desc limit 1',
    [entry.tenantId],
  );
  const event: Hashed = {
    tenantId: entry.tenantId,
    seq: (last[0]?.seq ?? 0) + 1,
    actor: entry.actor,
    action: entry.action,
    subject: entry.subject ?? null,
    details: entry.details ?? {},
    createdAt: new Date(),
    prevHash: last[0]?.hash ?? GENESIS_HASH,
  };
  const row = { id: randomUUID(), ...event, hash: hashEvent(event) };
  await tx.insert(AuditEvent, row);
  return row as AuditEvent;
}
