import { createHash, randomUUID } from 'node:crypto';
import { EventType } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { beforeCommit } from '../persistence/before-commit.js';
import { type Params, transactionSql } from '../persistence/sql.js';
import { queueDeliveriesSql, raisedWebhookEvents } from '../webhooks/queue-webhook-deliveries.js';
import type { AuditEvent } from './audit-event.entity.js';
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

interface PendingRow {
  id: string;
  tenant_id: string;
  actor: string;
  action: string;
  subject: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

/** The events a transaction has appended so far, keyed by its transaction context. */
const buffered = new WeakMap<object, PendingRow[]>();

/**
 * Records an event in the caller's transaction, unsealed: it is written when the transaction
 * commits, and only then, together with the transaction's other events in one multi-row INSERT.
 * No lock is taken and the chain head is not read; the sealer (audit-sealer.ts) numbers, hashes and
 * chains committed events afterwards, so concurrent requests of one tenant never wait on each other.
 */
export async function appendAuditEvent(tx: EntityManager, entry: AuditEntry): Promise<void> {
  const context = tx.isInTransaction() ? tx.getTransactionContext() : undefined;
  if (!context) throw new Error('audit events must be appended inside the transaction of the change');
  let rows = buffered.get(context);
  if (!rows) {
    const batch: PendingRow[] = [];
    rows = batch;
    buffered.set(context, batch);
    // Webhooks derive from the same events in the same statement: none for a rolled-back change.
    beforeCommit(tx, (em) => insertPending(em, batch));
  }
  rows.push(pendingRow(entry));
}

const pendingRow = (entry: AuditEntry): PendingRow => ({
  id: randomUUID(),
  tenant_id: entry.tenantId,
  actor: entry.actor,
  action: entry.action,
  subject: entry.subject ?? null,
  details: entry.details ?? {},
  created_at: new Date().toISOString(),
});

/**
 * The events of a change that one autocommit statement makes on its own, with no ORM transaction
 * (the wallet's credential request): `ctes` are that statement's CTEs inserting them, and the
 * webhook deliveries they raise, only if the statement's CTE `gate` yields a row; `committed` tells
 * the ORM's subscribers once the statement has succeeded, as a committed transaction would (metrics
 * count the events from there).
 */
export function statementAudit(entries: AuditEntry[]) {
  const rows = entries.map(pendingRow);
  const raised = raisedWebhookEvents(rows);
  return {
    ctes(params: Params, gate: string): string {
      const events = `(select ${params.add(JSON.stringify(rows))}::jsonb from ${gate})`;
      const audited = `audited as (${insertEventsFrom(events)})`;
      if (!raised.length) return audited;
      return `${audited}, ${queueDeliveriesSql(`(select ${params.add(JSON.stringify(raised))}::jsonb from ${gate})`)}`;
    },
    async committed(em: EntityManager): Promise<void> {
      const transaction = {};
      buffered.set(transaction, rows);
      await em.getEventManager().dispatchEvent(EventType.afterTransactionCommit, { em, transaction });
    },
  };
}

/**
 * The events a transaction appended, for a subscriber's `afterTransactionCommit` (the metrics count
 * them there): read after the commit, they are exactly the change that happened, and cost no query.
 */
export const auditEventsOf = (transaction: object): readonly Pick<PendingRow, 'action' | 'details'>[] =>
  buffered.get(transaction) ?? [];

/** The INSERT of the events in the jsonb array `source`, in its order (`ordinality` keeps it in `pos`). */
const insertEventsFrom = (source: string) =>
  `insert into audit_pending (id, tenant_id, actor, action, subject, details, created_at)
     select id, tenant_id, actor, action, subject, details, created_at
     from rows from (jsonb_to_recordset(cast(${source} as jsonb)) as (
       id uuid, tenant_id text, actor text, action text, subject text, details jsonb, created_at timestamptz))
       with ordinality as r(id, tenant_id, actor, action, subject, details, created_at, n)
     order by n`;

/**
 * One statement for all of a transaction's events (`ordinality` keeps their order in `pos`) and the
 * webhook deliveries they raise.
 */
async function insertPending(tx: EntityManager, rows: PendingRow[]): Promise<void> {
  const insertEvents = insertEventsFrom('$1');
  const raised = raisedWebhookEvents(rows);
  const sql = transactionSql(tx);
  if (!raised.length) await sql.query(insertEvents, [JSON.stringify(rows)]);
  else
    await sql.query(`with audited as (${insertEvents}), ${queueDeliveriesSql('$2')} select 1`, [
      JSON.stringify(rows),
      JSON.stringify(raised),
    ]);
}
