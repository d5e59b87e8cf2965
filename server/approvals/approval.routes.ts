import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { notFound } from '../http/problem.js';
import { principalOf } from '../http/request-context.js';
import { idempotent } from '../idempotency/idempotent.js';
import { approvalStatusOf } from '../verification/list-presentation-sessions.js';
import {
  failureReasonOf,
  PresentationSession,
  statusOf,
} from '../verification/presentation-session.entity.js';
import { resultOf } from '../verification/session-result.js';
import { sessionLinks } from '../verification/verification.routes.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { createApproval } from './create-approval.js';
import { requestIssuanceApproval } from './request-issuance-approval.js';

const s = initServer();

/** The integrator's approvals: ask for one, read its outcome and receipt (never another tenant's). */
export function approvalRoutes(services: VerifierServices) {
  return {
    createApproval: s.route(integratorContract.createApproval, async ({ body, headers, req, res }) => {
      const { tenantId } = principalOf(req);
      const scope = { tenantId, key: headers['idempotency-key'], route: 'POST /api/v1/approvals', body };
      const { answer, replayed } = await idempotent(req.em, scope, async (em) => {
        const { id, created } = await createApproval(em, services, tenantId, req.actor ?? '', body);
        return {
          status: 201 as const,
          body: { approval_id: id, session_id: created.session.id, ...sessionLinks(created) },
        };
      });
      if (replayed) res.setHeader('idempotent-replayed', 'true');
      return answer;
    }),
    // An approval whose approved outcome approves an issuance awaiting approval, as /approve does.
    requestIssuanceApproval: s.route(
      integratorContract.requestIssuanceApproval,
      async ({ params, body, headers, req, res }) => {
        const { tenantId } = principalOf(req);
        const route = `POST /api/v1/issuances/${params.id}/approval`;
        const scope = { tenantId, key: headers['idempotency-key'], route, body };
        const { answer, replayed } = await idempotent(req.em, scope, async (em) => {
          const actor = req.actor ?? '';
          const { id, created } = await requestIssuanceApproval(
            em,
            services,
            tenantId,
            actor,
            params.id,
            body,
          );
          return {
            status: 201 as const,
            body: { approval_id: id, session_id: created.session.id, ...sessionLinks(created) },
          };
        });
        if (replayed) res.setHeader('idempotent-replayed', 'true');
        return answer;
      },
    ),
    getApproval: s.route(integratorContract.getApproval, async ({ params, req }) => {
      const session = await req.em.findOne(PresentationSession, {
        approvalId: params.id,
        tenantId: principalOf(req).tenantId,
      });
      if (!session?.approval) throw notFound(`approval ${params.id}`);
      const session_status = statusOf(session);
      const status = approvalStatusOf(session_status);
      const result = status === 'approved' ? resultOf(session) : null;
      const reason =
        session_status === 'failed'
          ? failureReasonOf(session)
          : session_status === 'expired'
            ? 'expired'
            : null;
      return {
        status: 200,
        body: {
          approval_id: params.id,
          session_id: session.id,
          status,
          transaction: session.approval.transaction,
          power: session.approval.power,
          ...(reason ? { reason } : {}),
          ...(session_status === 'failed' && session.failureDescription
            ? { reason_description: session.failureDescription }
            : {}),
          ...(result?.claims ? { approver: result.claims } : {}),
          ...(result?.receipt ? { receipt: result.receipt } : {}),
        },
      };
    }),
  };
}
