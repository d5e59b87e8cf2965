import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { principalOf } from '../http/request-context.js';
import { approvalSummary, listPresentationSessions, sessionSummary } from './list-presentation-sessions.js';

const s = initServer();

/** The tenant's presentation sessions and approvals as lists (never another tenant's, never claims). */
export function sessionListRoutes() {
  return {
    listAuthorizationRequests: s.route(
      integratorContract.listAuthorizationRequests,
      async ({ query, req }) => {
        const page = await listPresentationSessions(req.em, principalOf(req).tenantId, query, {
          status: query.status,
        });
        return { status: 200, body: { items: page.rows.map(sessionSummary), more: page.more } };
      },
    ),
    listApprovals: s.route(integratorContract.listApprovals, async ({ query, req }) => {
      const page = await listPresentationSessions(req.em, principalOf(req).tenantId, query, {
        approval: query.status,
        approvalsOnly: true,
      });
      return { status: 200, body: { items: page.rows.map(approvalSummary), more: page.more } };
    }),
  };
}
