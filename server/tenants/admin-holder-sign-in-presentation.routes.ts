import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { adminActor } from '../http/admin-guard.js';
import type { HolderSignInPresentation } from './holder-sign-in-presentation.entity.js';
import {
  holderSignInPresentationOf,
  removeHolderSignInPresentation,
  saveHolderSignInPresentation,
  signInQueryOf,
} from './holder-sign-in-presentation.js';
import { getTenant } from './tenant-service.js';

const s = initServer();

const view = (p: HolderSignInPresentation) => ({
  credential: p.credentialQuery,
  match: p.match,
  dcql_query: signInQueryOf(p) as unknown as Record<string, unknown>,
  updated_at: p.updatedAt.toISOString(),
});

/**
 * Operators set the credential a tenant's holders present to sign in for issuance and the rule its
 * claims must meet. Each change is audited with the rule (claim paths and fields, no personal data).
 */
export function adminHolderSignInPresentationRoutes() {
  return {
    getHolderSignInPresentation: s.route(
      adminContract.getHolderSignInPresentation,
      async ({ params, req }) => {
        await getTenant(req.em, params.id);
        const rule = await holderSignInPresentationOf(req.em, params.id);
        if (!rule) throw notFound('a holder sign-in presentation of this tenant');
        return { status: 200, body: view(rule) };
      },
    ),
    putHolderSignInPresentation: s.route(
      adminContract.putHolderSignInPresentation,
      async ({ params, body, req }) => {
        await getTenant(req.em, params.id);
        const saved = await req.em.transactional(async (tx) => {
          const row = await saveHolderSignInPresentation(tx, params.id, body);
          await appendAuditEvent(tx, {
            tenantId: params.id,
            actor: adminActor(req),
            action: 'tenant.holder_sign_in_presentation.updated',
            subject: params.id,
            details: { credential: body.credential, match: body.match },
          });
          return row;
        });
        return { status: 200, body: view(saved) };
      },
    ),
    deleteHolderSignInPresentation: s.route(
      adminContract.deleteHolderSignInPresentation,
      async ({ params, req }) => {
        await getTenant(req.em, params.id);
        await req.em.transactional(async (tx) => {
          if (!(await removeHolderSignInPresentation(tx, params.id)))
            throw notFound('a holder sign-in presentation of this tenant');
          await appendAuditEvent(tx, {
            tenantId: params.id,
            actor: adminActor(req),
            action: 'tenant.holder_sign_in_presentation.removed',
            subject: params.id,
            details: {},
          });
        });
        return { status: 204, body: undefined };
      },
    ),
  };
}
