import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ProblemDetails } from '../problem-details.js';
import { TenantId } from './tenant.js';

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

/** Issuers a tenant's verifier accepts besides this service's own issuer. */
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
      responses: { 200: TrustedIssuerInput, 400: ProblemDetails, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Trust an issuer (or replace its configured keys)',
    },
    deleteTrustedIssuer: {
      method: 'POST',
      path: '/tenants/:id/trusted-issuers/remove',
      pathParams: z.object({ id: TenantId }),
      body: z.object({ issuer: z.string().url() }).strict(),
      responses: { 200: TrustedIssuerList, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Stop trusting an issuer',
    },
  },
  { pathPrefix: '/admin/v1', strictStatusCodes: true, metadata: { security: 'admin' } as const },
);
