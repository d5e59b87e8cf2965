import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { adminActor } from '../http/admin-guard.js';
import type { KeyEncryption } from '../keys/key-encryption.js';
import type { HolderSignInProvider } from './holder-sign-in-provider.entity.js';
import {
  holderSignInProviderOf,
  holderSignInRedirectUri,
  removeHolderSignInProvider,
  saveHolderSignInProvider,
} from './holder-sign-in-provider.js';
import { getTenant } from './tenant-service.js';

const s = initServer();

/**
 * Operators set the OpenID provider at which a tenant's holders sign in for issuance. The secret
 * goes in and is sealed, never out; each change is audited (without the secret).
 */
export function adminHolderSignInRoutes(sealing: KeyEncryption, issuerUrl: string) {
  const view = (p: HolderSignInProvider) => ({
    issuer: p.issuer,
    client_id: p.clientId,
    email_claim: p.emailClaim,
    redirect_uri: holderSignInRedirectUri(issuerUrl),
    updated_at: p.updatedAt.toISOString(),
  });
  return {
    getHolderSignInProvider: s.route(adminContract.getHolderSignInProvider, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      const provider = await holderSignInProviderOf(req.em, params.id);
      if (!provider) throw notFound('a holder sign-in provider of this tenant');
      return { status: 200, body: view(provider) };
    }),
    putHolderSignInProvider: s.route(adminContract.putHolderSignInProvider, async ({ params, body, req }) => {
      await getTenant(req.em, params.id);
      const saved = await req.em.transactional(async (tx) => {
        const row = await saveHolderSignInProvider(tx, sealing, params.id, {
          issuer: body.issuer,
          clientId: body.client_id,
          clientSecret: body.client_secret,
          emailClaim: body.email_claim,
        });
        await appendAuditEvent(tx, {
          tenantId: params.id,
          actor: adminActor(req),
          action: 'tenant.holder_sign_in_provider.updated',
          subject: params.id,
          details: { issuer: body.issuer, client_id: body.client_id, email_claim: body.email_claim },
        });
        return row;
      });
      return { status: 200, body: view(saved) };
    }),
    deleteHolderSignInProvider: s.route(adminContract.deleteHolderSignInProvider, async ({ params, req }) => {
      await getTenant(req.em, params.id);
      await req.em.transactional(async (tx) => {
        if (!(await removeHolderSignInProvider(tx, params.id)))
          throw notFound('a holder sign-in provider of this tenant');
        await appendAuditEvent(tx, {
          tenantId: params.id,
          actor: adminActor(req),
          action: 'tenant.holder_sign_in_provider.removed',
          subject: params.id,
          details: {},
        });
      });
      return { status: 204, body: undefined };
    }),
  };
}
