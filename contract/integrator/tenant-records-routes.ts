import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  AuditChainVerification,
  AuditEventPage,
  AuditEventQuery,
  AuditExportState,
} from '../admin/audit-event.js';
import { Issuance } from '../issuance/issuance.js';
import { IssuancePage, IssuanceQuery, StatusChangeReason } from '../issuance/issuance-search.js';
import { ProblemDetails } from '../problem-details.js';

const c = initContract();
const textId = z.object({ id: z.string().min(1).max(200) });
const readProblems = { 400: ProblemDetails, 401: ProblemDetails };

/**
 * What a tenant's own records look like through its integrator token: the issuances it made,
 * searched, and its audit log with the chain's verification and the export's state. A read-only
 * token (scope `read`) may use all of these but the withdrawal; the console reads through them.
 */
export const tenantRecordsRoutes = c.router({
  listIssuances: {
    method: 'GET',
    path: '/issuances',
    query: IssuanceQuery,
    responses: { 200: IssuancePage, ...readProblems },
    summary: 'Search the tenant’s issuances by e-mail, status, configuration and time, newest first',
  },
  withdrawIssuance: {
    method: 'POST',
    path: '/issuances/:id/withdraw',
    pathParams: textId,
    body: StatusChangeReason,
    metadata: { bodyOptional: true },
    responses: { 200: Issuance, 401: ProblemDetails, 403: ProblemDetails, 404: ProblemDetails },
    summary: 'Withdraw an issuance: its offer stops working and every credential issued from it is revoked',
  },
  resendIssuanceMail: {
    method: 'POST',
    path: '/issuances/:id/resend',
    pathParams: textId,
    body: c.noBody(),
    responses: {
      200: Issuance,
      401: ProblemDetails,
      403: ProblemDetails,
      404: ProblemDetails,
      409: ProblemDetails,
    },
    summary:
      'Mail an open offer again: a new tx_code replaces the old one (which stops working), with the offer link when the delivery is email',
  },
  listTenantAuditEvents: {
    method: 'GET',
    path: '/audit-events',
    query: AuditEventQuery,
    responses: { 200: AuditEventPage, ...readProblems },
    summary: 'Read the tenant’s audit log (as the admin API does), filtered by action, subject and time',
  },
  verifyTenantAuditChain: {
    method: 'GET',
    path: '/audit-events/verification',
    responses: { 200: AuditChainVerification, 401: ProblemDetails },
    summary: 'Recompute the tenant’s audit hash chain and check its signed head',
  },
  getTenantAuditExport: {
    method: 'GET',
    path: '/audit-export',
    responses: { 200: AuditExportState, 401: ProblemDetails },
    summary: 'How far the tenant’s audit events have been exported',
  },
});
