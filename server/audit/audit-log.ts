import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { beforeCommit } from '../persistence/before-commit.js';
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
 * Records an event in the caller's transaction: it is written when the transaction commits, and
 * only then. Writing takes the tenant's chain lock, so it is done as the transaction's last step
 * (see persistence/before-commit.ts): the lock is held for the commit only, not the whole request.
 */
export async function appendAuditEvent(tx: EntityManager, entry: AuditEntry): Promise<void> {
  const createdAt = new Date();
  beforeCommit(tx, 'audit', entry.tenantId, (em) => writeAuditEvent(em, { ...entry, createdAt }));
}

/**
 * Writes one event after the tenant's last one. A transaction-scoped advisory lock per tenant orders
 * concurrent writers; other tenants go on.
 */
async function writeAuditEvent(tx: EntityManager, entry: AuditEntry & { createdAt: Date }): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`audit:${entry.tenantId}`]);
  const [last] = await tx.execute<{ seq: number; hash: string }[]>(
    'select seq, hash from audit_event where tenant_id = ? order by seq desc limit 1',
    [entry.tenantId],
  );
  const event: Hashed = {
    tenantId: entry.tenantId,
    seq: (last?.seq ?? 0) + 1,
    actor: entry.actor,
    action: entry.action,
    subject: entry.subject ?? null,
    details: entry.details ?? {},
    createdAt: entry.createdAt,
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const hash = hashEvent(event);
  await tx.insert(AuditEvent, { id: randomUUID(), ...event, hash });
  await tx.execute(
    `insert into audit_head (tenant_id, seq, hash) values (?, ?, ?)
     on conflict (tenant_id) do update set seq = excluded.seq, hash = excluded.hash`,
    [entry.tenantId, event.seq, hash],
  );
}
