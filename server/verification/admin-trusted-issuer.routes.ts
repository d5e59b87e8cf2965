import { initServer } from '@ts-rest/express';
import { trustedIssuerContract } from '../../contract/admin/trusted-issuer-contract.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { adminActor } from '../http/admin-guard.js';
import { getTenant } from '../tenants/tenant-service.js';
import { adminTrustAnchorRoutes } from './admin-trust-anchor.routes.js';
import { TrustedIssuer } from './trusted-issuer.entity.js';
import { unresolvedKeysWarning } from './trusted-issuer-warnings.js';
import type { VerifierServices } from './verifier-services.js';

const s = initServer();

const view = (t: TrustedIssuer) => ({ issuer: t.issuer, ...(t.jwks ? { jwks: t.jwks } : {}) });

/**
 * Operators choose which issuers a tenant's verifier trusts, by keys or by trust anchors
 * (admin-trust-anchor.routes.ts); each change is audited.
 */
export function adminTrustedIssuerRoutes(verifier: Pick<VerifierServices, 'issuerMetadataKeys'>) {
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
      // An issuer trusted by its metadata is looked up now, before the transaction (no connection
      // waits on a fetch). One that cannot be reached is still trusted, since it may be down for a
      // while, but the answer and the tenant's warnings say so instead of a later untrusted_issuer.
      const keysError = body.jwks
        ? null
        : await verifier.issuerMetadataKeys(body.issuer).then(
            () => null,
            (e: Error) => e.message,
          );
      const row = {
        tenantId: params.id,
        issuer: body.issuer,
        jwks: body.jwks ?? null,
        keysError,
        keysCheckedAt: body.jwks ? null : new Date(),
      };
      const created = await req.em.transactional(async (tx) => {
        const existed = await tx.count(TrustedIssuer, { tenantId: params.id, issuer: body.issuer });
        await tx.upsert(TrustedIssuer, row);
        await appendAuditEvent(tx, {
          tenantId: params.id,
          actor: adminActor(req),
          action: 'verifier.issuer_trusted',
          subject: body.issuer,
          details: {
            keys: body.jwks ? 'configured' : 'metadata',
            ...(keysError ? { keys_resolved: false } : {}),
          },
        });
        return existed === 0;
      });
      const answer = { ...body, warnings: keysError ? [unresolvedKeysWarning(row)] : [] };
      return created ? { status: 201, body: answer } : { status: 200, body: answer };
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
