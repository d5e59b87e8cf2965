import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { principalOf } from '../http/request-context.js';
import type { Signer } from '../keys/signer.js';
import { auditPageOf, chainVerificationOf, exportStateOf } from './audit-answers.js';

const s = initServer();

/**
 * The tenant's own audit log through its integrator token: the admin API's answers, for the token's
 * tenant only (the tenant comes from the token, never from the request).
 */
export function tenantAuditRoutes(signer: Signer) {
  return {
    listTenantAuditEvents: s.route(integratorContract.listTenantAuditEvents, async ({ query, req }) => ({
      status: 200,
      body: await auditPageOf(req.em, principalOf(req).tenantId, query),
    })),
    verifyTenantAuditChain: s.route(integratorContract.verifyTenantAuditChain, async ({ req }) => ({
      status: 200,
      body: await chainVerificationOf(req.em, signer, principalOf(req).tenantId),
    })),
    getTenantAuditExport: s.route(integratorContract.getTenantAuditExport, async ({ req }) => ({
      status: 200,
      body: await exportStateOf(req.em, principalOf(req).tenantId),
    })),
  };
}
