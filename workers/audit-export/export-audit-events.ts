import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEvent } from '../../server/audit/audit-event.entity.js';
import { auditEventView } from '../../server/audit/audit-event.view.js';
import type { AuditSink } from './audit-sink.js';

const BATCH = 1000;

/** One exported line: the event as the admin API shows it, so exports verify like the API's chain. */
const line = (e: AuditEvent) => JSON.stringify(auditEventView(e));

/**
 * Exports a tenant's events after the sink's last one, in batches. A transaction-scoped advisory
 * lock makes concurrent exports of one tenant (two workers, a schedule and a request) take turns;
 * one that finds the lock taken does nothing, since the holder exports everything there is.
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
    let last = await sink.lastSeq(tenantId);
    let exported = 0;
    for (;;) {
      const events = await tx.find(
        AuditEvent,
        { tenantId, seq: { $gt: last } },
        { orderBy: { seq: 'asc' }, limit: BATCH },
      );
      if (!events.length) break;
      await sink.append(tenantId, last + 1, events.map(line));
      last = events.at(-1)?.seq ?? last;
      exported += events.length;
      await tx.execute(
        `insert into audit_export_cursor (tenant_id, last_seq, exported_at) values (?, ?, now())
         on conflict (tenant_id) do update set last_seq = excluded.last_seq, exported_at = excluded.exported_at`,
        [tenantId, last],
      );
      tx.clear();
      if (events.length < BATCH) break;
    }
    return exported;
  });
}
