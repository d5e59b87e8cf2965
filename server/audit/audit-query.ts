import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { AuditEvent } from './audit-event.entity.js';
import { GENESIS_HASH, hashEvent } from './audit-log.js';

export interface AuditFilter {
  action?: string;
  since?: Date;
  until?: Date;
  after?: number;
  limit: number;
}

/** A page of a tenant's audit log in chain order; `nextCursor` is the last seq when more may follow. */
export async function listAuditEvents(em: EntityManager, tenantId: string, f: AuditFilter) {
  const where: FilterQuery<AuditEvent> = { tenantId };
  if (f.action) where.action = f.action;
  if (f.after !== undefined) where.seq = { $gt: f.after };
  if (f.since || f.until) {
    where.createdAt = { ...(f.since ? { $gte: f.since } : {}), ...(f.until ? { $lt: f.until } : {}) };
  }
  const items = await em.find(AuditEvent, where, { orderBy: { seq: 'asc' }, limit: f.limit });
  const nextCursor = items.length === f.limit ? (items.at(-1)?.seq ?? null) : null;
  return { items, nextCursor };
}

export interface ChainVerification {
  valid: boolean;
  checked: number;
  firstInvalidSeq: number | null;
  reason: string | null;
}

const BATCH = 1000;

/**
 * Walks the tenant's chain from the first event: every seq present, every hash recomputed, every
 * link pointing at its predecessor. Reads in batches so long logs do not load at once.
 */
export async function verifyAuditChain(em: EntityManager, tenantId: string): Promise<ChainVerification> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  for (;;) {
    const batch = await em.find(
      AuditEvent,
      { tenantId, seq: { $gte: expectedSeq } },
      { orderBy: { seq: 'asc' }, limit: BATCH },
    );
    for (const e of batch) {
      const broken = (reason: string) => ({
        valid: false,
        checked: expectedSeq,
        firstInvalidSeq: expectedSeq,
        reason,
      });
      if (e.seq !== expectedSeq) return broken(`event ${expectedSeq} is missing`);
      if (e.prevHash !== prevHash) return broken(`event ${e.seq} does not link to its predecessor`);
      if (hashEvent(e) !== e.hash) return broken(`event ${e.seq} was altered after it was written`);
      prevHash = e.hash;
      expectedSeq++;
    }
    if (batch.length < BATCH) return checkHead(em, tenantId, expectedSeq - 1, prevHash);
    em.clear();
  }
}

/** The chain must end where the tenant's head says it ends; otherwise its newest events were cut off. */
async function checkHead(
  em: EntityManager,
  tenantId: string,
  lastSeq: number,
  lastHash: string,
): Promise<ChainVerification> {
  const [head] = await em.execute<{ seq: number; hash: string }[]>(
    'select seq, hash from audit_head where tenant_id = ?',
    [tenantId],
  );
  if (head && (head.seq !== lastSeq || head.hash !== lastHash)) {
    const reason =
      head.seq > lastSeq
        ? `events after ${lastSeq} are missing (the log was cut short)`
        : `the log does not end at its recorded head`;
    return { valid: false, checked: lastSeq, firstInvalidSeq: Math.min(head.seq, lastSeq + 1), reason };
  }
  return { valid: true, checked: lastSeq, firstInvalidSeq: null, reason: null };
}
