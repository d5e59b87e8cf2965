import { initServer } from '@ts-rest/express';
import { trustedIssuerContract } from '../../contract/admin/trusted-issuer-contract.js';
import { adminActor } from '../http/admin-guard.js';
import { adminTrustAnchorRoutes } from './admin-trust-anchor.routes.js';
import { listTrustedIssuers, trustIssuer, untrustIssuer } from './trusted-issuer-changes.js';
import type { VerifierServices } from './verifier-services.js';

const s = initServer();

/**
 * Operators choose which issuers a tenant's verifier trusts, by keys or by trust anchors
 * (admin-trust-anchor.routes.ts); each change is audited.
 */
export function adminTrustedIssuerRoutes(verifier: Pick<VerifierServices, 'issuerMetadataKeys'>) {
  return s.router(trustedIssuerContract, {
    ...adminTrustAnchorRoutes,
    listTrustedIssuers: async ({ params, req }) => ({
      status: 200,
      body: { items: await listTrustedIssuers(req.em, params.id) },
    }),
    putTrustedIssuer: async ({ params, body, req }) => {
      const { created, answer } = await trustIssuer(req.em, verifier, params.id, body, adminActor(req));
      return created ? { status: 201, body: answer } : { status: 200, body: answer };
    },
    deleteTrustedIssuer: async ({ params, body, req }) => ({
      status: 200,
      body: { items: await untrustIssuer(req.em, params.id, body.issuer, adminActor(req)) },
    }),
  });
}
