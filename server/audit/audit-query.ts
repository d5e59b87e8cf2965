import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { Signer } from '../keys/signer.js';
import { checkCheckpoint } from './audit-checkpoint.js';
import { AuditEvent } from './audit-event.entity.js';
import type { AuditEventRecord } from './audit-event.view.js';
import { type ChainVerification, verifySealedChain } from './verify-sealed-chain.js';

export interface AuditFilter {
  action?: string;
  subject?: string;
  since?: Date;
  until?: Date;
  after?: number;
  /** Newest first: events with a smaller seq. */
  before?: number;
  order?: 'asc' | 'desc';
  limit: number;
}

/** One snapshot for the whole read, so that events the sealer moves meanwhile are seen exactly once. */
const snapshot = { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true } as const;

/**
 * A page of a tenant's audit log: sealed events in chain order, paged by seq (`nextCursor` is the
 * last seq when more may follow). The page that reaches the end of the sealed chain also shows the
 * unsealed tail, oldest first, without seq or hashes; they get those, and a place for the cursor,
 * once sealed (typically within a second).
 */
export async function listAuditEvents(em: EntityManager, tenantId: string, f: AuditFilter) {
  if (f.order === 'desc') return listNewestFirst(em, tenantId, f);
  return em.transactional(async (tx) => {
    const where = sealedWhere(tenantId, f);
    if (f.after !== undefined) where.seq = { $gt: f.after };
    const sealed: AuditEventRecord[] = await tx.find(AuditEvent, where, {
      orderBy: { seq: 'asc' },
      limit: f.limit,
    });
    if (sealed.length === f.limit) return { items: sealed, nextCursor: sealed.at(-1)?.seq ?? null };
    const unsealed = await listUnsealed(tx, tenantId, f, f.limit - sealed.length);
    return { items: [...sealed, ...unsealed], nextCursor: null };
  }, snapshot);
}

/**
 * Newest first, for people reading what just happened: the first page (no `before`) starts with the
 * unsealed tail, newest first, then the sealed chain downwards; `nextCursor` is passed as `before`.
 */
async function listNewestFirst(em: EntityManager, tenantId: string, f: AuditFilter) {
  return em.transactional(async (tx) => {
    const unsealed = f.before === undefined ? await listUnsealed(tx, tenantId, f, f.limit, 'desc') : [];
    const where = sealedWhere(tenantId, f);
    if (f.before !== undefined) where.seq = { $lt: f.before };
    const sealed: AuditEventRecord[] = await tx.find(AuditEvent, where, {
      orderBy: { seq: 'desc' },
      limit: f.limit - unsealed.length,
    });
    const items = [...unsealed, ...sealed];
    const last = sealed.at(-1)?.seq;
    return { items, nextCursor: items.length === f.limit && last && last > 1 ? last : null };
  }, snapshot);
}

function sealedWhere(tenantId: string, f: AuditFilter): FilterQuery<AuditEvent> & Record<string, unknown> {
  const where: FilterQuery<AuditEvent> & Record<string, unknown> = { tenantId };
  if (f.action) where.action = f.action;
  if (f.subject) where.subject = f.subject;
  if (f.since || f.until) {
    where.createdAt = { ...(f.since ? { $gte: f.since } : {}), ...(f.until ? { $lt: f.until } : {}) };
  }
  return where;
}

async function listUnsealed(
  tx: EntityManager,
  tenantId: string,
  f: AuditFilter,
  limit: number,
  order: 'asc' | 'desc' = 'asc',
): Promise<AuditEventRecord[]> {
  if (limit <= 0) return [];
  const conditions: [string, unknown][] = [['tenant_id = ?', tenantId]];
  if (f.action) conditions.push(['action = ?', f.action]);
  if (f.subject) conditions.push(['subject = ?', f.subject]);
  if (f.since) conditions.push(['created_at >= ?', f.since]);
  if (f.until) conditions.push(['created_at < ?', f.until]);
  const where = conditions.map(([c]) => c).join(' and ');
  const params = conditions.map(([, v]) => v);
  const rows = await tx.execute<Omit<AuditEventRecord, 'seq' | 'prevHash' | 'hash'>[]>(
    `select id, tenant_id as "tenantId", actor, action, subject, details, created_at as "createdAt"
     from audit_pending where ${where} order by pos ${order === 'desc' ? 'desc' : 'asc'} limit ?`,
    [...params, limit],
  );
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt), seq: null, prevHash: null, hash: null }));
}

export interface AuditVerification extends ChainVerification {
  /** Events appended but not yet sealed: not covered by the check above. */
  unsealed: number;
  oldestUnsealedAt: Date | null;
  oldestUnsealedAgeMs: number | null;
  /** The signed head, when there is one. */
  checkpoint: { seq: number; hash: string; sealedAt: Date | null; kid: string | null; valid: boolean } | null;
}

export interface AuditHead {
  seq: number;
  hash: string;
  checkpoint: string | null;
  sealed_at: Date | null;
}

/** A tenant's sealed chain head (its last sealed event and signed checkpoint), if it has one. */
export async function readAuditHead(em: EntityManager, tenantId: string): Promise<AuditHead | undefined> {
  const [head] = await em.execute<AuditHead[]>(
    'select seq, hash, checkpoint, sealed_at from audit_head where tenant_id = ?',
    [tenantId],
  );
  return head;
}

/**
 * Checks what is sealed (the chain, its head, and the head's signed checkpoint) and reports the
 * unsealed tail: how many events wait and how old the oldest is. One snapshot, so a sealer running
 * meanwhile neither breaks the chain-to-head comparison nor hides events.
 */
export async function verifyAuditChain(
  em: EntityManager,
  signer: Signer,
  tenantId: string,
): Promise<AuditVerification> {
  return em.transactional(async (tx) => {
    const head = await readAuditHead(tx, tenantId);
    const [tail] = await tx.execute<{ n: string; oldest: Date | null; age_ms: number | null }[]>(
      `select count(*) as n, min(created_at) as oldest,
         extract(epoch from clock_timestamp() - min(created_at)) * 1000 as age_ms
       from audit_pending where tenant_id = ?`,
      [tenantId],
    );
    const tailReport = {
      unsealed: Number(tail?.n ?? 0),
      oldestUnsealedAt: tail?.oldest ? new Date(tail.oldest) : null,
      oldestUnsealedAgeMs: tail?.age_ms == null ? null : Math.max(0, Math.round(Number(tail.age_ms))),
    };
    const chain = await verifySealedChain(tx, tenantId, head);
    if (!head || (head.seq === 0 && !head.checkpoint)) return { ...chain, ...tailReport, checkpoint: null };
    const cp = head.checkpoint
      ? await checkCheckpoint(signer, head.checkpoint, { tenant: tenantId, seq: head.seq, hash: head.hash })
      : ({ ok: false, reason: 'the chain head has no signed checkpoint', kid: null } as const);
    const checkpoint = {
      seq: head.seq,
      hash: head.hash,
      sealedAt: head.sealed_at ? new Date(head.sealed_at) : null,
      kid: cp.kid,
      valid: cp.ok,
    };
    if (!chain.valid || cp.ok) return { ...chain, ...tailReport, checkpoint };
    return { ...chain, valid: false, reason: cp.reason, firstInvalidSeq: null, ...tailReport, checkpoint };
  }, snapshot);
}
