import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { notFound } from '../http/problem.js';
import { principalOf } from '../http/request-context.js';
import { idempotent } from '../idempotency/idempotent.js';
import type { Sql } from '../persistence/sql.js';
import { changeCredentialStatus, type StatusAction } from './change-credential-status.js';
import { type CreatedIssuance, createIssuance, type IssuanceServices } from './create-issuance.js';
import { decideIssuance, type IssuanceDecision } from './decide-issuance.js';
import { Issuance } from './issuance.entity.js';
import { issuanceView } from './issuance.view.js';
import { IssuedCredential } from './issued-credential.entity.js';
import { resendOfferMail } from './resend-offer-mail.js';
import { searchIssuances } from './search-issuances.js';
import { withdrawIssuance } from './withdraw-issuance.js';

const s = initServer();

const createdView = (created: CreatedIssuance) => ({
  offer_id: created.offerId,
  ...(created.offerUri ? { credential_offer_uri: created.offerUri } : {}),
  expires_in: created.expiresIn,
  delivery: created.delivery,
  ...(created.credential
    ? { credential: created.credential.credential, credential_id: created.credential.id }
    : {}),
});

/** The integrator's issuance API: create offers, read them, decide deferred ones, change credential status. */
export function issuanceRoutes(services: IssuanceServices, sql: Sql) {
  const statusRoute =
    (action: StatusAction) =>
    async ({ params, body, req }: { params: { id: string }; body?: { reason?: string }; req: Request }) => {
      const p = principalOf(req);
      const actor = req.actor ?? '';
      const reason = body?.reason;
      const credential = await changeCredentialStatus(req.em, p.tenantId, params.id, action, actor, reason);
      return { status: 200 as const, body: { id: credential.id, status: credential.status } };
    };
  const decisionRoute =
    (decision: IssuanceDecision) =>
    async ({ params, req }: { params: { id: string }; req: Request }) => {
      const tenantId = principalOf(req).tenantId;
      const issuance = await decideIssuance(req.em, tenantId, params.id, decision, req.actor ?? '');
      const credentials: IssuedCredential[] = [];
      return { status: 200 as const, body: issuanceView(issuance, credentials, services.issuerUrl) };
    };
  return {
    createIssuance: s.route(integratorContract.createIssuance, async ({ body, headers, req, res }) => {
      const tenantId = principalOf(req).tenantId;
      const key = headers['idempotency-key'];
      const scope = { tenantId, key, route: 'POST /api/v1/issuances', body };
      const { answer, replayed } = await idempotent(req.em, scope, async (em) => {
        const created = await createIssuance(em, services, tenantId, req.actor ?? '', body, sql);
        return { status: 201 as const, body: createdView(created) };
      });
      if (replayed) res.setHeader('idempotent-replayed', 'true');
      return answer;
    }),
    getIssuance: s.route(integratorContract.getIssuance, async ({ params, req }) => {
      const tenantId = principalOf(req).tenantId;
      const issuance = await req.em.findOne(Issuance, { id: params.id, tenantId });
      if (!issuance) throw notFound(`issuance ${params.id}`);
      const credentials = await req.em.find(
        IssuedCredential,
        { issuanceId: issuance.id },
        { orderBy: { issuedAt: 'asc' } },
      );
      return { status: 200, body: issuanceView(issuance, credentials, services.issuerUrl) };
    }),
    listIssuances: s.route(integratorContract.listIssuances, async ({ query, req }) => {
      const page = await searchIssuances(req.em, principalOf(req).tenantId, query);
      const items = page.items.map((i) => issuanceView(i.issuance, i.credentials, services.issuerUrl));
      return { status: 200, body: { items, more: page.more } };
    }),
    withdrawIssuance: s.route(integratorContract.withdrawIssuance, async ({ params, body, req }) => {
      const tenantId = principalOf(req).tenantId;
      const reason = body?.reason;
      const issuance = await withdrawIssuance(req.em, tenantId, params.id, req.actor ?? '', reason);
      const credentials = await req.em.find(IssuedCredential, { issuanceId: issuance.id });
      return { status: 200, body: issuanceView(issuance, credentials, services.issuerUrl) };
    }),
    resendIssuanceMail: s.route(integratorContract.resendIssuanceMail, async ({ params, req }) => {
      const tenantId = principalOf(req).tenantId;
      const issuance = await resendOfferMail(req.em, services, tenantId, params.id, req.actor ?? '');
      const credentials = await req.em.find(IssuedCredential, { issuanceId: issuance.id });
      return { status: 200, body: issuanceView(issuance, credentials, services.issuerUrl) };
    }),
    approveIssuance: s.route(integratorContract.approveIssuance, decisionRoute('approve')),
    declineIssuance: s.route(integratorContract.declineIssuance, decisionRoute('decline')),
    revokeCredential: s.route(integratorContract.revokeCredential, statusRoute('revoke')),
    suspendCredential: s.route(integratorContract.suspendCredential, statusRoute('suspend')),
    unsuspendCredential: s.route(integratorContract.unsuspendCredential, statusRoute('unsuspend')),
  };
}
