import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ProblemDetails } from '../problem-details.js';
import { TenantId } from './tenant.js';
import { TrustAnchorId, TrustAnchorInfo, TrustAnchorInput, TrustAnchorList } from './trust-anchor.js';

const c = initContract();

export const TrustedIssuerInput = z
  .object({
    issuer: z.string().url().describe('The `iss` of the credentials to accept'),
    jwks: z
      .object({ keys: z.array(z.record(z.unknown())).min(1) })
      .optional()
      .describe('Its keys; absent: resolved from its /.well-known/jwt-vc-issuer metadata'),
  })
  .strict();

export const TrustedIssuerList = z.object({ items: z.array(TrustedIssuerInput) });

export const TrustedIssuerRegistered = TrustedIssuerInput.extend({
  warnings: z
    .array(z.string())
    .describe(
      'What keeps its credentials from verifying, e.g. that the keys in its jwt-vc-issuer metadata could not be resolved now, and why (the issuer is trusted all the same; the tenant’s warnings keep saying so until they can be)',
    ),
});

/**
 * Issuers a tenant's verifier accepts besides this service's own issuer: by their keys (trusted
 * issuers) or by an X.509 chain to one of its trust anchors.
 */
export const trustedIssuerContract = c.router(
  {
    listTrustedIssuers: {
      method: 'GET',
      path: '/tenants/:id/trusted-issuers',
      pathParams: z.object({ id: TenantId }),
      responses: { 200: TrustedIssuerList, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Issuers whose credentials this tenant’s verifier accepts',
    },
    putTrustedIssuer: {
      method: 'POST',
      path: '/tenants/:id/trusted-issuers',
      pathParams: z.object({ id: TenantId }),
      body: TrustedIssuerInput,
      responses: {
        200: TrustedIssuerRegistered,
        201: TrustedIssuerRegistered,
        400: ProblemDetails,
        401: ProblemDetails,
        404: ProblemDetails,
      },
      summary:
        'Trust an issuer (201), or replace its configured keys (200); without jwks its metadata keys are looked up at once',
    },
    deleteTrustedIssuer: {
      method: 'POST',
      path: '/tenants/:id/trusted-issuers/remove',
      pathParams: z.object({ id: TenantId }),
      body: z.object({ issuer: z.string().url() }).strict(),
      responses: { 200: TrustedIssuerList, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Stop trusting an issuer',
    },
    listTrustAnchors: {
      method: 'GET',
      path: '/tenants/:id/trust-anchors',
      pathParams: z.object({ id: TenantId }),
      responses: { 200: TrustAnchorList, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'X.509 roots whose certified issuers this tenant’s verifier accepts',
    },
    addTrustAnchor: {
      method: 'POST',
      path: '/tenants/:id/trust-anchors',
      pathParams: z.object({ id: TenantId }),
      body: TrustAnchorInput,
      responses: {
        200: TrustAnchorInfo,
        201: TrustAnchorInfo,
        400: ProblemDetails,
        401: ProblemDetails,
        404: ProblemDetails,
      },
      summary:
        'Trust credentials whose x5c chain leads to this CA certificate (201; 200 when already trusted)',
    },
    deleteTrustAnchor: {
      method: 'DELETE',
      path: '/tenants/:id/trust-anchors/:sha256',
      pathParams: z.object({ id: TenantId, sha256: TrustAnchorId }),
      body: c.noBody(),
      responses: { 204: c.noBody(), 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Stop trusting a trust anchor (named by the SHA-256 of its certificate)',
    },
  },
  { pathPrefix: '/admin/v1', strictStatusCodes: true, metadata: { security: 'admin' } as const },
);

export { TrustAnchorId, TrustAnchorInfo, TrustAnchorInput, TrustAnchorList };
