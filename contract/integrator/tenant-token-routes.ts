import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ApiTokenCreated, ApiTokenInfo, ApiTokenList, TokenKind, TokenScope } from '../admin/api-token.js';
import { ProblemDetails } from '../problem-details.js';

const c = initContract();

/**
 * A token a tenant makes for itself always expires (within a year): a console session or a leaked
 * integrator token cannot leave a token behind that outlives everyone's attention. Tokens that never
 * expire are the operator's to make (admin API).
 */
export const TenantTokenCreateRequest = z
  .object({
    kind: TokenKind,
    scope: TokenScope.default('full').describe('read: GET requests only; every change is refused 403'),
    expires_at: z
      .string()
      .datetime()
      .describe('When the token stops working: in the future, at most 366 days from now'),
  })
  .strict();

const changeProblems = { 400: ProblemDetails, 401: ProblemDetails, 403: ProblemDetails };

/** The tenant's own API tokens through its integrator token (the admin API's, for this tenant). */
export const tenantTokenRoutes = c.router({
  listTenantTokens: {
    method: 'GET',
    path: '/tokens',
    responses: { 200: ApiTokenList, 401: ProblemDetails },
    summary: 'List the tenant’s integrator and SCIM tokens (never their secrets)',
  },
  createTenantToken: {
    method: 'POST',
    path: '/tokens',
    body: TenantTokenCreateRequest,
    responses: { 201: ApiTokenCreated, ...changeProblems },
    summary: 'Issue a new integrator or SCIM token of the tenant (shown once); it must expire',
  },
  revokeTenantToken: {
    method: 'POST',
    path: '/tokens/:tokenId/revoke',
    pathParams: z.object({ tokenId: z.string().uuid() }),
    body: c.noBody(),
    responses: { 200: ApiTokenInfo, 401: ProblemDetails, 403: ProblemDetails, 404: ProblemDetails },
    summary: 'Revoke a token of the tenant (the one presented too, if asked)',
  },
});
