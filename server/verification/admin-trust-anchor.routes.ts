import { initServer } from '@ts-rest/express';
import { trustedIssuerContract } from '../../contract/admin/trusted-issuer-contract.js';
import { adminActor } from '../http/admin-guard.js';
import { getTenant } from '../tenants/tenant-service.js';
import { addTrustAnchor, removeTrustAnchor } from './trust-anchor-changes.js';
import { listTrustAnchors, trustAnchorView } from './trust-anchors.js';

const s = initServer();
const { listTrustAnchors: list, addTrustAnchor: add, deleteTrustAnchor: remove } = trustedIssuerContract;

/** Operators register the X.509 roots a tenant's verifier trusts issuers by; each change is audited. */
export const adminTrustAnchorRoutes = {
  listTrustAnchors: s.route(list, async ({ params, req }) => {
    await getTenant(req.em, params.id);
    return { status: 200, body: { items: (await listTrustAnchors(req.em, params.id)).map(trustAnchorView) } };
  }),
  addTrustAnchor: s.route(add, async ({ params, body, req }) => {
    const { anchor, added } = await addTrustAnchor(req.em, params.id, body.certificate, adminActor(req));
    return { status: added ? 201 : 200, body: trustAnchorView(anchor) };
  }),
  deleteTrustAnchor: s.route(remove, async ({ params, req }) => {
    await removeTrustAnchor(req.em, params.id, params.sha256, adminActor(req));
    return { status: 204, body: undefined };
  }),
};
