import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import type { Signer } from '../keys/signer.js';
import { recordEffect } from '../outbox/outbox.js';
import { getTenant } from '../tenants/tenant-service.js';
import { auditEventView } from './audit-event.view.js';
import { listAuditEvents, verifyAuditChain } from './audit-query.js';

const s = initServer();

export function adminAuditRoutes(signer: Signer) {
  return {
    getAuditExport: s.route(adminContract.getAuditExport, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      const [row] = await req.em.execute<{ last_seq: number; exported_at: Date }[]>(
        'select last_seq, exported_at from audit_export_cursor where tenant_id = ?',
        [params.id],
      );
      return {
        status: 200,
        body: {
          last_seq: row?.last_seq ?? 0,
          exported_at: row ? new Date(row.exported_at).toISOString() : null,
        },
      };
    }),
    requestAuditExport: s.route(adminContract.requestAuditExport, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      await req.em.transactional((tx) => recordEffect(tx, 'audit-export', { tenantId: params.id }));
      return { status: 202, body: { queued: true as const } };
    }),
    listAuditEvents: s.route(adminContract.listAuditEvents, async ({ params, query, req }) => {
      await getTenant(req.em, params.id);
      const page = await listAuditEvents(req.em, params.id, {
        action: query.action,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        after: query.after,
        limit: query.limit,
      });
      return { status: 200, body: { items: page.items.map(auditEventView), next_cursor: page.nextCursor } };
    }),
    verifyAuditChain: s.route(adminContract.verifyAuditChain, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      const v = await verifyAuditChain(req.em, signer, params.id);
      const cp = v.checkpoint;
      return {
        status: 200,
        body: {
          valid: v.valid,
          checked: v.checked,
          first_invalid_seq: v.firstInvalidSeq,
          reason: v.reason,
          unsealed: v.unsealed,
          oldest_unsealed_at: v.oldestUnsealedAt?.toISOString() ?? null,
          oldest_unsealed_age_ms: v.oldestUnsealedAgeMs,
          checkpoint: cp && {
            seq: cp.seq,
            hash: cp.hash,
            sealed_at: cp.sealedAt?.toISOString() ?? null,
            kid: cp.kid,
            valid: cp.valid,
          },
        },
      };
    }),
  };
}
