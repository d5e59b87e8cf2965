import { initContract } from '@ts-rest/core';
import { ProblemDetails } from '../problem-details.js';
import {
  ApprovalPage,
  ApprovalQuery,
  PresentationSessionPage,
  PresentationSessionQuery,
} from '../verification/presentation-session-list.js';

const c = initContract();
const readProblems = { 400: ProblemDetails, 401: ProblemDetails };

/** The tenant's presentation sessions and approvals as lists (their outcome, no personal data). */
export const tenantSessionRoutes = c.router({
  listAuthorizationRequests: {
    method: 'GET',
    path: '/authorization-request',
    query: PresentationSessionQuery,
    responses: { 200: PresentationSessionPage, ...readProblems },
    summary: 'List the tenant’s presentation sessions, newest first, with their outcome (no claims)',
  },
  listApprovals: {
    method: 'GET',
    path: '/approvals',
    query: ApprovalQuery,
    responses: { 200: ApprovalPage, ...readProblems },
    summary: 'List the tenant’s approvals, newest first, with their outcome (not the approver)',
  },
});
