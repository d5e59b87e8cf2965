import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { TrustAnchorId, TrustAnchorInfo, TrustAnchorInput, TrustAnchorList } from '../admin/trust-anchor.js';
import { ProblemDetails } from '../problem-details.js';

const c = initContract();

/** The X.509 roots the tenant's verifier trusts issuers by, through its integrator token. */
export const tenantTrustRoutes = c.router({
  listTenantTrustAnchors: {
    method: 'GET',
    path: '/trust-anchors',
    responses: { 200: TrustAnchorList, 401: ProblemDetails },
    summary: 'X.509 roots whose certified issuers the tenant’s verifier accepts',
  },
  addTenantTrustAnchor: {
    method: 'POST',
    path: '/trust-anchors',
    body: TrustAnchorInput,
    responses: {
      200: TrustAnchorInfo,
      201: TrustAnchorInfo,
      400: ProblemDetails,
      401: ProblemDetails,
      403: ProblemDetails,
    },
    summary: 'Trust credentials whose x5c chain leads to this CA certificate (201; 200 when already trusted)',
  },
  deleteTenantTrustAnchor: {
    method: 'DELETE',
    path: '/trust-anchors/:sha256',
    pathParams: z.object({ sha256: TrustAnchorId }),
    body: c.noBody(),
    responses: { 204: c.noBody(), 401: ProblemDetails, 403: ProblemDetails, 404: ProblemDetails },
    summary: 'Stop trusting a trust anchor (named by the SHA-256 of its certificate)',
  },
});
