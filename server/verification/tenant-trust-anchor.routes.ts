import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { integratorActor } from '../http/integrator-guard.js';
import { principalOf } from '../http/request-context.js';
import { addTrustAnchor, removeTrustAnchor } from './trust-anchor-changes.js';
import { listTrustAnchors, trustAnchorView } from './trust-anchors.js';

const s = initServer();
const r = integratorContract;

/** The tenant's trust anchors through its integrator token (as the admin API, for this tenant only). */
export function tenantTrustAnchorRoutes() {
  return {
    listTenantTrustAnchors: s.route(r.listTenantTrustAnchors, async ({ req }) => ({
      status: 200,
      body: { items: (await listTrustAnchors(req.em, principalOf(req).tenantId)).map(trustAnchorView) },
    })),
    addTenantTrustAnchor: s.route(r.addTenantTrustAnchor, async ({ body, req }) => {
      const tenantId = principalOf(req).tenantId;
      const { anchor, added } = await addTrustAnchor(
        req.em,
        tenantId,
        body.certificate,
        integratorActor(req),
      );
      return { status: added ? 201 : 200, body: trustAnchorView(anchor) };
    }),
    deleteTenantTrustAnchor: s.route(r.deleteTenantTrustAnchor, async ({ params, req }) => {
      await removeTrustAnchor(req.em, principalOf(req).tenantId, params.sha256, integratorActor(req));
      return { status: 204, body: undefined };
    }),
  };
}
