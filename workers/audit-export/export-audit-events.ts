import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEvent } from '../../server/audit/audit-event.entity.js';
import { auditEventView } from '../../server/audit/audit-event.view.js';
import { type AuditHead, readAuditHead } from '../../server/audit/audit-query.js';
import type { AuditSink } from './audit-sink.js';

const BATCH = 1000;

/** One exported line: the event as the admin API shows it, so exports verify like the API's chain. */
const line = (e: AuditEvent) => JSON.stringify(auditEventView(e));

/**
 * The signed chain head, exported after the events it covers. Its `seq` is that of the line before
 * it, so the sink's position (the last line's seq) stays exact. A copy kept outside the database
 * is what shows a later rollback: the chain can no longer reach a head someone has kept.
 */
const checkpointLine = (tenantId: string, head: AuditHead) =>
  JSON.stringify({
    type: 'checkpoint',
    tenant_id: tenantId,
    seq: head.seq,
    hash: head.hash,
    sealed_at: head.sealed_at ? new Date(head.sealed_at).toISOString() : null,
    jws: head.checkpoint,
  });

/**
 * Exports a tenant's sealed events after the sink's last one, up to the chain head, in batches,
 * and then the head's signed checkpoint. Unsealed events wait for the sealer, so every exported
 * event has its seq and hashes. A transaction-scoped advisory lock makes concurrent exports of one
 * tenant (two workers, a schedule and a request) take turns; one that finds the lock taken does
 * nothing, since the holder exports everything there is.
 */
export async function exportAuditEvents(
  em: EntityManager,
  sink: AuditSink,
  tenantId: string,
): Promise<number> {
  return em.transactional(async (tx) => {
    const [lock] = await tx.execute<{ ok: boolean }[]>(
      'select pg_try_advisory_xact_lock(hashtext(?)) as ok',
      [`audit-export:${tenantId}`],
    );
    if (!lock?.ok) return 0;
    const head = await readAuditHead(tx, tenantId);
    if (!head) return 0;
    let last = await sink.lastSeq(tenantId);
    let exported = 0;
    while (last < head.seq) {
      const events = await tx.find(
        AuditEvent,
        { tenantId, seq: { $gt: last, $lte: head.seq } },
        { orderBy: { seq: 'asc' }, limit: BATCH },
      );
      if (!events.length) break;
      const lines = events.map(line);
      const end = events.at(-1)?.seq ?? last;
      if (end === head.seq && head.checkpoint) lines.push(checkpointLine(tenantId, head));
      await sink.append(tenantId, last + 1, lines);
      last = end;
      exported += events.length;
      await tx.execute(
        `insert into audit_export_cursor (tenant_id, last_seq, exported_at) values (?, ?, now())
         on conflict (tenant_id) do update set last_seq = excluded.last_seq, exported_at = excluded.exported_at`,
        [tenantId, last],
      );
      tx.clear();
    }
    return exported;
  });
}
