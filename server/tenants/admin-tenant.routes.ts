import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import type { Config } from '../config.js';
import { provisioningWarnings } from '../directory/provisioning-warnings.js';
import { adminActor } from '../http/admin-guard.js';
import { trustSourceWarnings } from '../trust/trust-source-warnings.js';
import { presentationProfileWarnings } from '../verification/profile-warnings.js';
import { trustedIssuerWarnings } from '../verification/trusted-issuer-warnings.js';
import { scimUrlOf, tenantView, tokenView } from './tenant.view.js';
import {
  createTenant,
  getTenant,
  issueToken,
  listTenants,
  listTokens,
  revokeToken,
  updateTenant,
} from './tenant-service.js';

const s = initServer();

/** Admin routes for tenants and their tokens: parse, call one domain function, map the result. */
export function adminTenantRoutes(config: Config) {
  return {
    createTenant: s.route(adminContract.createTenant, async ({ body, req }) => {
      const created = await createTenant(req.em, body, adminActor(req));
      return {
        status: 201,
        body: {
          id: created.tenant.id,
          integrator_token: created.integratorToken,
          scim_token: created.scimToken,
          scim_url: scimUrlOf(config.publicUrl, created.tenant.id),
        },
      };
    }),
    listTenants: s.route(adminContract.listTenants, async ({ query, req }) => {
      const { items, total } = await listTenants(req.em, query.limit, query.offset);
      return { status: 200, body: { items: items.map((t) => tenantView(t, config.publicUrl)), total } };
    }),
    getTenant: s.route(adminContract.getTenant, async ({ params, req }) => {
      const tenant = await getTenant(req.em, params.id);
      const warnings = [
        ...(await provisioningWarnings(req.em, tenant)),
        ...(await presentationProfileWarnings(req.em, tenant)),
        ...(await trustedIssuerWarnings(req.em, tenant.id)),
        ...(await trustSourceWarnings(req.em, tenant.id, config.TRUST_LIST_GRACE_SECONDS)),
      ];
      return { status: 200, body: { ...tenantView(tenant, config.publicUrl), warnings } };
    }),
    updateTenant: s.route(adminContract.updateTenant, async ({ params, body, req }) => ({
      status: 200,
      body: tenantView(
        await updateTenant(
          req.em,
          params.id,
          {
            name: body.name,
            delivery: body.delivery,
            mandator: body.mandator,
            credentialConfigurations: body.credential_configurations,
            branding: body.branding,
            mailFrom: body.mail_from,
            offerTtlSeconds: body.offer_expires_in,
            preAuthorizedCodeTtlSeconds: body.pre_authorized_code_expires_in,
            presentationUriScheme: body.presentation_uri_scheme,
            presentationProfile: body.presentation_profile,
            offerUriScheme: body.offer_uri_scheme,
            refreshTokenTtlSeconds: body.refresh_token_expires_in,
            encryptionRequired: body.encryption_required,
          },
          adminActor(req),
        ),
        config.publicUrl,
      ),
    })),
    listTokens: s.route(adminContract.listTokens, async ({ params, req }) => ({
      status: 200,
      body: { items: (await listTokens(req.em, params.id)).map(tokenView) },
    })),
    createToken: s.route(adminContract.createToken, async ({ params, body, req }) => {
      const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
      const created = await issueToken(req.em, params.id, body.kind, expiresAt, adminActor(req), body.scope);
      return { status: 201, body: { ...tokenView(created), token: created.token } };
    }),
    revokeToken: s.route(adminContract.revokeToken, async ({ params, req }) => ({
      status: 200,
      body: tokenView(await revokeToken(req.em, params.id, params.tokenId, adminActor(req))),
    })),
  };
}
