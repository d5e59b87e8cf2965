import { initServer } from '@ts-rest/express';
import { trustedIssuerContract } from '../../contract/admin/trusted-issuer-contract.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { adminActor } from '../http/admin-guard.js';
import { getTenant } from '../tenants/tenant-service.js';
import { adminTrustAnchorRoutes } from './admin-trust-anchor.routes.js';
import { TrustedIssuer } from './trusted-issuer.entity.js';

const s = initServer();

const view = (t: TrustedIssuer) => ({ issuer: t.issuer, ...(t.jwks ? { jwks: t.jwks } : {}) });

/**
 * Operators choose which issuers a tenant's verifier trusts, by keys or by trust anchors
 * (admin-trust-anchor.routes.ts); each change is audited.
 */
export function adminTrustedIssuerRoutes() {
  return s.router(trustedIssuerContract, {
    ...adminTrustAnchorRoutes,
    listTrustedIssuers: async ({ params, req }) => {
      await getTenant(req.em, params.id);
      return {
        status: 200,
        body: { items: (await req.em.find(TrustedIssuer, { tenantId: params.id })).map(view) },
      };
    },
    putTrustedIssuer: async ({ params, body, req }) => {
      await getTenant(req.em, params.id);
      await req.em.transactional(async (tx) => {
        await tx.upsert(TrustedIssuer, { tenantId: params.id, issuer: body.issuer, jwks: body.jwks ?? null });
        await appendAuditEvent(tx, {
          tenantId: params.id,
          actor: adminActor(req),
          action: 'verifier.issuer_trusted',
          subject: body.issuer,
          details: { keys: body.jwks ? 'configured' : 'metadata' },
        });
      });
      return { status: 200, body };
    },
    deleteTrustedIssuer: async ({ params, body, req }) => {
      await getTenant(req.em, params.id);
      await req.em.transactional(async (tx) => {
        await tx.nativeDelete(TrustedIssuer, { tenantId: params.id, issuer: body.issuer });
        await appendAuditEvent(tx, {
          tenantId: params.id,
          actor: adminActor(req),
          action: 'verifier.issuer_untrusted',
          subject: body.issuer,
          details: {},
        });
      });
      return {
        status: 200,
        body: { items: (await req.em.find(TrustedIssuer, { tenantId: params.id })).map(view) },
      };
    },
  });
}
