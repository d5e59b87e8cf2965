import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { outboundPolicy } from '../../server/outbound/outbound-policy.js';
import { Tenant } from '../../server/tenants/tenant.entity.js';
import { drainTenant } from '../audit-seal/seal-pending-audit.js';
import type { Processor } from '../job-context.js';
import { type AuditSink, directorySink, httpsSink } from './audit-sink.js';
import { exportAuditEvents } from './export-audit-events.js';

const cursorOf = (em: EntityManager) => ({
  async get(tenantId: string) {
    const [row] = await em
      .fork()
      .execute<{ last_seq: number }[]>('select last_seq from audit_export_cursor where tenant_id = ?', [
        tenantId,
      ]);
    return row?.last_seq ?? 0;
  },
});

/**
 * Exports one tenant's new audit events (payload `tenantId`), or every tenant's (no payload). Seals
 * the tenant first, so that an export asked for right after a change includes it.
 */
export const auditExportProcessor: Processor = async ({ tenantId }, { em, config, logger, signer }) => {
  const sink: AuditSink = config.AUDIT_EXPORT_URL
    ? httpsSink(config.AUDIT_EXPORT_URL, cursorOf(em), outboundPolicy(config))
    : directorySink(config.AUDIT_EXPORT_DIR ?? path.join(config.dataDir, 'audit-export'));
  const tenants = tenantId ? [tenantId] : (await em.find(Tenant, {}, { fields: ['id'] })).map((t) => t.id);
  for (const id of tenants) {
    await drainTenant(em, signer, id, { wait: true });
    const exported = await exportAuditEvents(em.fork(), sink, id);
    if (exported) logger.info({ tenant: id, exported, sink: sink.description }, 'audit events exported');
  }
};
