import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { notFound } from '../http/problem.js';
import { principalOf } from '../http/request-context.js';
import { idempotent } from '../idempotency/idempotent.js';
import { createPresentationSession } from './create-presentation-session.js';
import { failureReasonOf, PresentationSession, statusOf } from './presentation-session.entity.js';
import { resultOf } from './session-result.js';
import type { VerifierServices } from './verifier-services.js';

const s = initServer();

/** What the integrator gets of a new session to send the wallet there: links, QR code, DC API requests. */
export const sessionLinks = (created: Awaited<ReturnType<typeof createPresentationSession>>) => ({
  expires_in: created.expiresIn,
  authorization_request_uri: created.authorizationRequestUri,
  cross_device_uri: created.crossDeviceUri,
  qr_code: created.qrCode,
  ...(created.sessionBinding ? { session_binding: created.sessionBinding } : {}),
  ...(created.dcApiRequest
    ? {
        dc_api_request: created.dcApiRequest,
        dc_api_requests: created.dcApiRequests,
        dc_api_response_uri: created.dcApiResponseUri,
      }
    : {}),
});

/** The integrator's verification API: start a session, read its result (never another tenant's). */
export function verificationRoutes(services: VerifierServices) {
  return {
    createAuthorizationRequest: s.route(
      integratorContract.createAuthorizationRequest,
      async ({ body, headers, req, res }) => {
        const { tenantId } = principalOf(req);
        const key = headers['idempotency-key'];
        const scope = { tenantId, key, route: 'POST /api/v1/authorization-request', body };
        const { answer, replayed } = await idempotent(req.em, scope, async (em) => {
          const created = await createPresentationSession(em, services, tenantId, req.actor ?? '', body);
          return {
            status: 201 as const,
            body: {
              session_id: created.session.id,
              request_uri: `openid-vp://verifier/request/${created.session.id}`,
              ...sessionLinks(created),
            },
          };
        });
        if (replayed) res.setHeader('idempotent-replayed', 'true');
        return answer;
      },
    ),
    getAuthorizationRequest: s.route(integratorContract.getAuthorizationRequest, async ({ params, req }) => {
      const session = await req.em.findOne(PresentationSession, {
        id: params.id,
        tenantId: principalOf(req).tenantId,
      });
      if (!session) throw notFound(`session ${params.id}`);
      const status = statusOf(session);
      // Nothing of what was presented shows before the session is verified: a same-device answer
      // awaiting its redirect keeps its result until the response code is redeemed (HAIP 1.0).
      const verified = status === 'verified';
      const result = verified ? resultOf(session) : null;
      const reason = status === 'failed' ? failureReasonOf(session) : null;
      return {
        status: 200,
        body: {
          session_id: session.id,
          status,
          verified,
          credential_type: result?.credential_type ?? session.credentialConfigurationId ?? null,
          ...(result?.claims ? { claims: result.claims } : {}),
          ...(result?.trust ? { trust: result.trust } : {}),
          ...(result?.credentials ? { credentials: result.credentials } : {}),
          ...(session.profile ? { profile: session.profile } : {}),
          ...(session.approvalId ? { approval_id: session.approvalId } : {}),
          ...(reason ? { reason } : {}),
          ...(status === 'failed' && session.failureDescription
            ? { reason_description: session.failureDescription }
            : {}),
        },
      };
    }),
  };
}
