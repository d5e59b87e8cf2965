import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DeliveryMode } from './admin/tenant.js';
import {
  ApprovalCreate,
  ApprovalCreated,
  ApprovalStatus,
  IssuanceApprovalCreate,
} from './approvals/approval.js';
import { tenantRecordsRoutes } from './integrator/tenant-records-routes.js';
import { tenantRelyingPartyRoutes } from './integrator/tenant-relying-party-routes.js';
import { tenantSessionRoutes } from './integrator/tenant-session-routes.js';
import { tenantTokenRoutes } from './integrator/tenant-token-routes.js';
import { tenantTrustedIssuerRoutes, tenantTrustRoutes } from './integrator/tenant-trust-routes.js';
import { tenantWebhookRoutes } from './integrator/tenant-webhook-routes.js';
import { CredentialStatusChange, Issuance, IssuanceCreated } from './issuance/issuance.js';
import { IssuanceRequest } from './issuance/issuance-request.js';
import { StatusChangeReason } from './issuance/issuance-search.js';
import { ProblemDetails } from './problem-details.js';
import {
  AuthorizationRequestCreate,
  AuthorizationRequestCreated,
  VerificationStatus,
} from './verification/authorization-request.js';

const c = initContract();

export const IntegratorIdentity = z.object({
  tenant_id: z.string(),
  name: z.string(),
  delivery: DeliveryMode,
});

// Credentials are uuids; a malformed id is a 400 here and never reaches the uuid column.
const credentialPath = z.object({ id: z.string().uuid() });
// Offer and session ids are opaque text; bounded so that no id is a payload.
const textId = z.object({ id: z.string().min(1).max(200) });
/**
 * A retried creation (a timeout, a proxy's retry) sends the same key and gets the first answer back
 * instead of a second offer or session; the same key with another body is a 422.
 */
const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
    .optional()
    .describe(
      'Makes the request safe to retry: within 24 hours the same key and body return the first answer ' +
        '(status and body, with Idempotent-Replayed: true); the same key with another body is a 422. ' +
        'A duplicate sent while the first is in flight waits for it and gets its answer.',
    ),
});
const creationProblems = {
  400: ProblemDetails,
  401: ProblemDetails,
  409: ProblemDetails,
  422: ProblemDetails,
};
/** 409 when the issuance is not awaiting approval (undecided, already decided, or expired). */
const decisionResponses = { 200: Issuance, 401: ProblemDetails, 404: ProblemDetails, 409: ProblemDetails };
const credentialStatusResponses = {
  200: CredentialStatusChange,
  401: ProblemDetails,
  403: ProblemDetails,
  404: ProblemDetails,
  409: ProblemDetails,
};

/** The integrator API of a tenant (bearer integrator token). */
export const integratorContract = c.router(
  {
    whoAmI: {
      method: 'GET',
      path: '/me',
      responses: { 200: IntegratorIdentity, 401: ProblemDetails },
      summary: 'The tenant the presented integrator token belongs to',
    },
    createIssuance: {
      method: 'POST',
      path: '/issuances',
      headers: idempotencyHeaders,
      body: IssuanceRequest,
      responses: { 201: IssuanceCreated, ...creationProblems },
      summary: 'Create a credential offer (pre-authorized code, tx_code by e-mail) or issue directly',
    },
    getIssuance: {
      method: 'GET',
      path: '/issuances/:id',
      pathParams: textId,
      responses: { 200: Issuance, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Read an issuance and the status of its credentials',
    },
    approveIssuance: {
      method: 'POST',
      path: '/issuances/:id/approve',
      pathParams: textId,
      body: c.noBody(),
      responses: decisionResponses,
      summary:
        "Approve an issuance awaiting approval: the wallet's next deferred credential request gets the credentials",
    },
    declineIssuance: {
      method: 'POST',
      path: '/issuances/:id/decline',
      pathParams: textId,
      body: c.noBody(),
      responses: decisionResponses,
      summary: 'Decline an issuance awaiting approval: the wallet is told credential_request_denied',
    },
    requestIssuanceApproval: {
      method: 'POST',
      path: '/issuances/:id/approval',
      pathParams: textId,
      headers: idempotencyHeaders,
      body: IssuanceApprovalCreate,
      responses: { 201: ApprovalCreated, ...creationProblems, 404: ProblemDetails },
      summary:
        'Ask an employee to approve an issuance awaiting approval with the mandate in their credential: once the approval is approved, so is the issuance (as by /approve); a failed one leaves it waiting',
    },
    revokeCredential: {
      method: 'POST',
      path: '/credentials/:id/revoke',
      pathParams: credentialPath,
      body: StatusChangeReason,
      metadata: { bodyOptional: true },
      responses: credentialStatusResponses,
      summary: 'Revoke a credential (final); visible at its status list uri within seconds',
    },
    suspendCredential: {
      method: 'POST',
      path: '/credentials/:id/suspend',
      pathParams: credentialPath,
      body: StatusChangeReason,
      metadata: { bodyOptional: true },
      responses: credentialStatusResponses,
      summary: 'Suspend a credential (reversible)',
    },
    unsuspendCredential: {
      method: 'POST',
      path: '/credentials/:id/unsuspend',
      pathParams: credentialPath,
      body: StatusChangeReason,
      metadata: { bodyOptional: true },
      responses: credentialStatusResponses,
      summary: 'Lift a suspension',
    },
    createAuthorizationRequest: {
      method: 'POST',
      path: '/authorization-request',
      headers: idempotencyHeaders,
      body: AuthorizationRequestCreate,
      responses: { 201: AuthorizationRequestCreated, ...creationProblems },
      summary:
        'Start a presentation session (OID4VP); the wallet answers, the integrator polls, subscribes or is redirected',
    },
    getAuthorizationRequest: {
      method: 'GET',
      path: '/authorization-request/:id',
      pathParams: textId,
      responses: { 200: VerificationStatus, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'The status of a presentation session, and the disclosed claims once verified',
    },
    createApproval: {
      method: 'POST',
      path: '/approvals',
      headers: idempotencyHeaders,
      body: ApprovalCreate,
      responses: { 201: ApprovalCreated, ...creationProblems },
      summary:
        'Ask an employee to approve a transaction with the mandate in their credential (OpenID4VP transaction_data)',
    },
    getApproval: {
      method: 'GET',
      path: '/approvals/:id',
      pathParams: textId,
      responses: { 200: ApprovalStatus, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'The status of an approval; once approved, the approver and the signed receipt',
    },
    ...tenantRecordsRoutes,
    ...tenantSessionRoutes,
    ...tenantWebhookRoutes,
    ...tenantTokenRoutes,
    ...tenantTrustRoutes,
    ...tenantTrustedIssuerRoutes,
    ...tenantRelyingPartyRoutes,
  },
  { pathPrefix: '/api/v1', strictStatusCodes: true, metadata: { security: 'integrator' } as const },
);
