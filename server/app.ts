import { createExpressEndpoints, initServer } from '@ts-rest/express';
import express, { type Express } from 'express';
import { adminContract } from '../contract/admin/admin-contract.js';
import { consoleContract } from '../contract/admin/console-contract.js';
import { registrationCertificateContract } from '../contract/admin/registration-certificate-contract.js';
import { trustSourceContract } from '../contract/admin/trust-source-contract.js';
import { trustedIssuerContract } from '../contract/admin/trusted-issuer-contract.js';
import { webhookContract } from '../contract/admin/webhook-contract.js';
import { transactionDataTypeContract } from '../contract/approvals/transaction-data-type.js';
import { healthContract } from '../contract/health-contract.js';
import { contract } from '../contract/index.js';
import { integratorContract } from '../contract/integrator-contract.js';
import type { AppContext } from './app-context.js';
import { adminTransactionDataTypeRoutes } from './approvals/admin-transaction-data-type.routes.js';
import { approvalRoutes } from './approvals/approval.routes.js';
import { adminAuditRoutes } from './audit/admin-audit.routes.js';
import { tenantAuditRoutes } from './audit/tenant-audit.routes.js';
import { adminConsoleRoutes } from './console/admin-console.routes.js';
import { consoleRouter } from './console/console.router.js';
import { adminCredentialConfigurationRoutes } from './credential-configurations/admin-credential-configuration.routes.js';
import { adminProvisioningRoutes } from './directory/admin-provisioning.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { adminGuard } from './http/admin-guard.js';
import { apiDocsRouter } from './http/api-docs.js';
import { asyncHandler } from './http/async-handler.js';
import { OAUTH_PREFIXES, sendClientError } from './http/audience.js';
import { jsonBody } from './http/body-parsers.js';
import { ClientError } from './http/client-error.js';
import { integratorGuard } from './http/integrator-guard.js';
import { guardContractBodies } from './http/media-type-guard.js';
import { problemRenderer, requestValidationProblem } from './http/problem-renderer.js';
import { forkEntityManager } from './http/request-context.js';
import { requestHygiene } from './http/request-hygiene.js';
import { requestLog } from './http/request-log.js';
import { requireHttps, securityHeaders } from './http/transport-security.js';
import { whoAmIRoutes } from './integrator/whoami.routes.js';
import { issuanceRoutes } from './issuance/issuance.routes.js';
import { adminKeyRoutes } from './keys/admin-key.routes.js';
import type { KeyStore } from './keys/key-store.js';
import { metricsOf } from './metrics/service-metrics.js';
import { oauthErrorRenderer } from './oid4vci/oauth-error-renderer.js';
import { mountOid4vci } from './oid4vci/oid4vci.endpoints.js';
import { dcApiResponseCors } from './oid4vp/dc-api-cors.js';
import { mountOid4vp } from './oid4vp/oid4vp.endpoints.js';
import { adminOidcClientRoutes } from './oidc/admin-oidc-client.routes.js';
import { mountOidc } from './oidc/oidc.endpoints.js';
import { tenantOidcClientRoutes } from './oidc/tenant-oidc-client.routes.js';
import { rateLimits } from './rate-limit/rate-limits.js';
import { adminRegistrationCertificateRoutes } from './registration/admin-registration-certificate.routes.js';
import { registrarTrust } from './registration/registrar-trust.js';
import { scimRouter } from './scim/scim.router.js';
import { statusListRouter } from './status-list/status-list.routes.js';
import { adminHolderSignInRoutes } from './tenants/admin-holder-sign-in.routes.js';
import { adminHolderSignInPresentationRoutes } from './tenants/admin-holder-sign-in-presentation.routes.js';
import { adminTenantRoutes } from './tenants/admin-tenant.routes.js';
import { tenantTokenRoutes } from './tenants/tenant-token.routes.js';
import { adminTrustSourceRoutes } from './trust/admin-trust-source.routes.js';
import { adminTrustedIssuerRoutes } from './verification/admin-trusted-issuer.routes.js';
import { DC_API_RESPONSE_PATH } from './verification/dc-api-request.js';
import { loginEventsRoute } from './verification/login-events.route.js';
import { sessionListRoutes } from './verification/session-list.routes.js';
import { tenantTrustAnchorRoutes } from './verification/tenant-trust-anchor.routes.js';
import { tenantTrustedIssuerRoutes } from './verification/tenant-trusted-issuer.routes.js';
import { verificationRoutes } from './verification/verification.routes.js';
import { adminWebhookRoutes } from './webhooks/admin-webhook.routes.js';
import { tenantWebhookRoutes } from './webhooks/tenant-webhook.routes.js';

const s = initServer();

/** Assembles the HTTP service: guards per audience, the contract's routes, one error renderer each. */
export function createApp(ctx: AppContext & { keys: KeyStore }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.TRUST_PROXY);
  const metrics = metricsOf(ctx);
  app.use(metrics.observeRequests);
  app.use(requestLog(ctx.logger));
  app.use(requestHygiene);
  app.use(securityHeaders);
  app.use(requireHttps(ctx.config));
  // On this port only with a token; METRICS_PORT serves it on a listener of its own (README: Metrics).
  if (ctx.config.METRICS_TOKEN) app.get('/metrics', asyncHandler(metrics.serve));
  const limits = rateLimits(ctx.config, ctx.shared);
  app.use(limits.byAddress);
  app.use(forkEntityManager(ctx.orm));
  app.use(apiDocsRouter(ctx.config.publicUrl));

  app.use('/console', consoleRouter(ctx));
  app.use('/admin', adminGuard(ctx.config.ADMIN_TOKEN));
  app.use('/api/v1', integratorGuard, limits.byTenant);
  app.use('/tenants/:tenant/scim/v2', limits.byTenant, scimRouter(ctx));
  app.use('/status-lists', statusListRouter(ctx));
  // Before the body guards, so that the preflight is answered and refusals are readable cross-origin.
  app.use(DC_API_RESPONSE_PATH, dcApiResponseCors);
  app.use(jsonBody('1mb'));
  guardContractBodies(app, contract);

  const options = { responseValidation: true, requestValidationErrorHandler: requestValidationProblem };
  createExpressEndpoints(healthContract, healthRoutes(ctx), app, options);
  createExpressEndpoints(
    adminContract,
    s.router(adminContract, {
      ...adminTenantRoutes(ctx.config),
      ...adminAuditRoutes(ctx.signer),
      ...adminKeyRoutes(ctx.keys),
      ...adminCredentialConfigurationRoutes(ctx.config.issuerUrl, ctx.issuance.validator),
      ...adminProvisioningRoutes(),
      ...adminOidcClientRoutes(),
      ...adminHolderSignInRoutes(ctx.verifier.sealing, ctx.config.issuerUrl),
      ...adminHolderSignInPresentationRoutes(),
    }),
    app,
    options,
  );
  createExpressEndpoints(
    integratorContract,
    s.router(integratorContract, {
      ...whoAmIRoutes(),
      ...issuanceRoutes(ctx.issuance, ctx.sql),
      ...verificationRoutes(ctx.verifier),
      ...approvalRoutes(ctx.verifier),
      ...sessionListRoutes(),
      ...tenantAuditRoutes(ctx.signer),
      ...tenantWebhookRoutes(ctx.config),
      ...tenantTokenRoutes(),
      ...tenantTrustAnchorRoutes(),
      ...tenantOidcClientRoutes(),
      ...tenantTrustedIssuerRoutes(ctx.verifier, ctx.verifier.trust),
    }),
    app,
    options,
  );
  createExpressEndpoints(trustedIssuerContract, adminTrustedIssuerRoutes(ctx.verifier), app, options);
  createExpressEndpoints(trustSourceContract, adminTrustSourceRoutes(ctx.verifier.trust), app, options);
  createExpressEndpoints(webhookContract, adminWebhookRoutes(ctx.config), app, options);
  createExpressEndpoints(transactionDataTypeContract, adminTransactionDataTypeRoutes, app, options);
  createExpressEndpoints(consoleContract, adminConsoleRoutes(ctx.config, ctx.shared.ttl), app, options);
  createExpressEndpoints(
    registrationCertificateContract,
    adminRegistrationCertificateRoutes(
      { signer: ctx.signer, vouch: registrarTrust(ctx.verifier.trust.of) },
      ctx.logger,
    ),
    app,
    options,
  );
  mountOid4vci(app, ctx, ctx.issuance.codes);
  mountOid4vp(app, ctx.verifier);
  mountOidc(app, ctx);
  app.get('/api/login/events', asyncHandler(loginEventsRoute(ctx.verifier)));

  app.use((req, res) =>
    sendClientError(req, res, new ClientError(404, `${req.method} ${req.path} does not exist`)),
  );
  app.use(OAUTH_PREFIXES, oauthErrorRenderer(ctx.logger));
  app.use(problemRenderer(ctx.logger));
  return app;
}
