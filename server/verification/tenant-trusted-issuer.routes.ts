import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { integratorActor } from '../http/integrator-guard.js';
import { principalOf } from '../http/request-context.js';
import type { TrustServices } from '../trust/trust-services.js';
import { trustSourceChanges } from '../trust/trust-source-changes.js';
import { listTrustedIssuers, trustIssuer, untrustIssuer } from './trusted-issuer-changes.js';
import type { VerifierServices } from './verifier-services.js';

const s = initServer();
const r = integratorContract;

/**
 * The tenant's trusted issuers and trust sources through its integrator token (the admin API's, for
 * this tenant only: another tenant's source ids are 404s).
 */
export function tenantTrustedIssuerRoutes(
  verifier: Pick<VerifierServices, 'issuerMetadataKeys'>,
  trust: TrustServices,
) {
  const sources = trustSourceChanges(trust);
  return {
    listTenantTrustedIssuers: s.route(r.listTenantTrustedIssuers, async ({ req }) => ({
      status: 200,
      body: { items: await listTrustedIssuers(req.em, principalOf(req).tenantId) },
    })),
    putTenantTrustedIssuer: s.route(r.putTenantTrustedIssuer, async ({ body, req }) => {
      const tenantId = principalOf(req).tenantId;
      const { created, answer } = await trustIssuer(req.em, verifier, tenantId, body, integratorActor(req));
      return created ? { status: 201, body: answer } : { status: 200, body: answer };
    }),
    removeTenantTrustedIssuer: s.route(r.removeTenantTrustedIssuer, async ({ body, req }) => ({
      status: 200,
      body: {
        items: await untrustIssuer(req.em, principalOf(req).tenantId, body.issuer, integratorActor(req)),
      },
    })),
    listTenantTrustSources: s.route(r.listTenantTrustSources, async ({ req }) => ({
      status: 200,
      body: { items: await sources.list(req.em, principalOf(req).tenantId) },
    })),
    addTenantTrustSource: s.route(r.addTenantTrustSource, async ({ body, req }) => ({
      status: 201,
      body: await sources.add(req.em, principalOf(req).tenantId, body, integratorActor(req)),
    })),
    refreshTenantTrustSource: s.route(r.refreshTenantTrustSource, async ({ params, req }) => ({
      status: 200,
      body: await sources.refresh(req.em, principalOf(req).tenantId, params.sourceId, integratorActor(req)),
    })),
    deleteTenantTrustSource: s.route(r.deleteTenantTrustSource, async ({ params, req }) => {
      await sources.remove(req.em, principalOf(req).tenantId, params.sourceId, integratorActor(req));
      return { status: 204, body: undefined };
    }),
  };
}
