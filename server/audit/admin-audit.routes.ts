import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import type { Signer } from '../keys/signer.js';
import { recordEffect } from '../outbox/outbox.js';
import { getTenant } from '../tenants/tenant-service.js';
import { auditPageOf, chainVerificationOf, exportStateOf } from './audit-answers.js';

const s = initServer();

export function adminAuditRoutes(signer: Signer) {
  return {
    getAuditExport: s.route(adminContract.getAuditExport, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      return { status: 200, body: await exportStateOf(req.em, params.id) };
    }),
    requestAuditExport: s.route(adminContract.requestAuditExport, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      await req.em.transactional((tx) => recordEffect(tx, 'audit-export', { tenantId: params.id }));
      return { status: 202, body: { queued: true as const } };
    }),
    listAuditEvents: s.route(adminContract.listAuditEvents, async ({ params, query, req }) => {
      await getTenant(req.em, params.id);
      return { status: 200, body: await auditPageOf(req.em, params.id, query) };
    }),
    verifyAuditChain: s.route(adminContract.verifyAuditChain, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      return { status: 200, body: await chainVerificationOf(req.em, signer, params.id) };
    }),
  };
}
