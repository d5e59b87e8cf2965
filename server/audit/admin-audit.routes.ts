import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import { getTenant } from '../tenants/tenant-service.js';
import type { AuditEvent } from './audit-event.entity.js';
import { listAuditEvents, verifyAuditChain } from './audit-query.js';

const s = initServer();

const eventView = (e: AuditEvent) => ({
  id: e.id,
  seq: e.seq,
  tenant_id: e.tenantId,
  actor: e.actor,
  action: e.action,
  subject: e.subject ?? null,
  details: e.details,
  created_at: e.createdAt.toISOString(),
  prev_hash: e.prevHash,
  hash: e.hash,
});

export function adminAuditRoutes() {
  return {
    listAuditEvents: s.route(adminContract.listAuditEvents, async ({ params, query, req }) => {
      await getTenant(req.em, params.id);
      const page = await listAuditEvents(req.em, params.id, {
        action: query.action,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        after: query.after,
        limit: query.limit,
      });
      return { status: 200, body: { items: page.items.map(eventView), next_cursor: page.nextCursor } };
    }),
    verifyAuditChain: s.route(adminContract.verifyAuditChain, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      const v = await verifyAuditChain(req.em, params.id);
      return {
        status: 200,
        body: { valid: v.valid, checked: v.checked, first_invalid_seq: v.firstInvalidSeq, reason: v.reason },
      };
    }),
  };
}
