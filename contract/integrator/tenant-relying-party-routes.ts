import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { OidcClientCreated, OidcClientCreateRequest, OidcClientList } from '../oidc/oidc-client.js';
import { ProblemDetails } from '../problem-details.js';

const c = initContract();

/** The tenant's relying parties (OpenID Connect clients) through its integrator token. */
export const tenantRelyingPartyRoutes = c.router({
  listTenantOidcClients: {
    method: 'GET',
    path: '/oidc-clients',
    responses: { 200: OidcClientList, 401: ProblemDetails },
    summary: 'List the tenant’s relying parties (never their secrets)',
  },
  createTenantOidcClient: {
    method: 'POST',
    path: '/oidc-clients',
    body: OidcClientCreateRequest,
    responses: { 201: OidcClientCreated, 400: ProblemDetails, 401: ProblemDetails, 403: ProblemDetails },
    summary: 'Register a relying party of the tenant (its client_secret shown once)',
  },
  deleteTenantOidcClient: {
    method: 'DELETE',
    path: '/oidc-clients/:clientId',
    pathParams: z.object({ clientId: z.string().min(1).max(200) }),
    body: c.noBody(),
    responses: { 204: c.noBody(), 401: ProblemDetails, 403: ProblemDetails, 404: ProblemDetails },
    summary: 'Remove a relying party of the tenant; its pending logins and tokens stop working',
  },
});
