import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppContext } from '../app-context.js';
import { asyncHandler } from '../http/async-handler.js';
import { formBody } from '../http/body-parsers.js';
import { CONSOLE_JS, tenantBrandCss } from './console-assets.js';
import type { ConsoleDeps } from './console-deps.js';
import { consoleErrorRenderer } from './console-errors.js';
import { sessionOf, tenantGuard } from './console-guard.js';
import { consoleSessions } from './console-session.js';
import { CONSOLE_CSS } from './console-style.js';
import { operatorRoutes } from './operator.routes.js';
import { auditPage } from './pages/audit-page.js';
import { brandingPage } from './pages/branding-page.js';
import { brandingPreview } from './pages/branding-preview.js';
import { chartsPage } from './pages/charts-page.js';
import { credentialAction, resendAction, withdrawAction } from './pages/credential-actions.js';
import { groupsPage } from './pages/groups-page.js';
import { issuancePage } from './pages/issuance-page.js';
import { issuancesPage } from './pages/issuances-page.js';
import { landingPage } from './pages/landing-page.js';
import { presentationPage } from './pages/presentation-page.js';
import { presentationsPage } from './pages/presentations-page.js';
import { relyingPartiesPage } from './pages/relying-parties-page.js';
import { registerRelyingPartyAction, removeRelyingPartyAction } from './pages/relying-party-actions.js';
import { createTokenAction, revokeTokenAction } from './pages/token-actions.js';
import { tokensPage } from './pages/tokens-page.js';
import { addAnchorAction, removeAnchorAction, trustPage } from './pages/trust-page.js';
import { addSourceAction, sourceAction } from './pages/trust-sources.js';
import { addIssuerAction, removeIssuerAction } from './pages/trusted-issuers.js';
import { usersPage } from './pages/users-page.js';
import { replayDeliveryAction, rotateSecretAction } from './pages/webhook-actions.js';
import { webhookPage, webhooksPage } from './pages/webhooks-page.js';
import { revokeSessionTokens } from './session-tokens.js';
import { signInRoutes } from './sign-in.routes.js';

// Nothing but the service's own origin: no inline script or style, no framing, forms post here only.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** /console: the tenant administrators' and the operator's console (server-rendered pages). */
export function consoleRouter(ctx: AppContext): Router {
  const d: ConsoleDeps = {
    config: ctx.config,
    ttl: ctx.shared.ttl,
    sealing: ctx.verifier.sealing,
    logger: ctx.logger,
    secure: ctx.config.publicUrl.startsWith('https:'),
    sessions: consoleSessions(ctx.shared.ttl, {
      // Read at each use, so that a test can shorten a running service's idle limit.
      get idleSeconds() {
        return ctx.config.CONSOLE_IDLE_SECONDS;
      },
      get maxSeconds() {
        return ctx.config.CONSOLE_MAX_SECONDS;
      },
    }),
  };
  const router = Router();
  router.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.get('/assets/console.css', (_req, res) =>
    res.type('css').setHeader('Cache-Control', 'public, max-age=300').send(CONSOLE_CSS),
  );
  router.get('/assets/console.js', (_req, res) =>
    res.type('js').setHeader('Cache-Control', 'public, max-age=300').send(CONSOLE_JS),
  );
  router.get(
    '/assets/brand/:tenant.css',
    asyncHandler(async (req, res) =>
      res.type('css').send(await tenantBrandCss(req.unforkedEm, String(req.params.tenant))),
    ),
  );
  router.get(
    '/',
    asyncHandler(async (req, res) => landingPage(req, res, (await sessionOf(d, req))?.session ?? null)),
  );
  router.get('/sign-in', (req, res) => {
    const tenant = typeof req.query.tenant === 'string' ? req.query.tenant.trim().toLowerCase() : '';
    res.redirect(303, `/console/t/${encodeURIComponent(tenant)}/sign-in`);
  });
  router.use(signInRoutes(d));
  router.use(operatorRoutes(d));

  const guard = asyncHandler(tenantGuard(d));
  const page = (handler: (req: Request, res: Response) => Promise<unknown>) => asyncHandler(handler);
  router.get('/t/:tenant', (req, res) =>
    res.redirect(303, `/console/t/${encodeURIComponent(String(req.params.tenant))}/issuances`),
  );
  router.get('/t/:tenant/issuances', guard, page(issuancesPage));
  router.get('/t/:tenant/issuances/:id', guard, page(issuancePage));
  router.get(
    '/t/:tenant/users',
    guard,
    page((req, res) => usersPage(req, res, ctx.config.publicUrl)),
  );
  router.get('/t/:tenant/presentations', guard, page(presentationsPage));
  router.get('/t/:tenant/presentations/:id', guard, page(presentationPage));
  router.get(
    '/t/:tenant/groups',
    guard,
    page((req, res) => groupsPage(req, res, ctx.config.publicUrl)),
  );
  router.get('/t/:tenant/branding', guard, page(brandingPage));
  router.get('/t/:tenant/branding/preview/:page', guard, page(brandingPreview));
  router.get('/t/:tenant/audit', guard, page(auditPage));
  router.get('/t/:tenant/charts', guard, page(chartsPage));
  router.post('/t/:tenant/credentials/:id/:action', formBody('16kb'), guard, page(credentialAction));
  router.post('/t/:tenant/issuances/:id/withdraw', formBody('16kb'), guard, page(withdrawAction));
  router.post('/t/:tenant/issuances/:id/resend', formBody('16kb'), guard, page(resendAction));
  router.get('/t/:tenant/webhooks', guard, page(webhooksPage));
  router.get('/t/:tenant/webhooks/:id', guard, page(webhookPage));
  router.post('/t/:tenant/webhooks/:id/rotate-secret', formBody('4kb'), guard, page(rotateSecretAction));
  router.post(
    '/t/:tenant/webhooks/:id/deliveries/:deliveryId/replay',
    formBody('4kb'),
    guard,
    page(replayDeliveryAction),
  );
  router.get('/t/:tenant/tokens', guard, page(tokensPage));
  router.post('/t/:tenant/tokens', formBody('4kb'), guard, page(createTokenAction));
  router.post('/t/:tenant/tokens/:id/revoke', formBody('4kb'), guard, page(revokeTokenAction));
  router.get('/t/:tenant/trust', guard, page(trustPage));
  // A PEM certificate may be up to 20,000 characters (the contract's limit), form-encoded.
  router.post('/t/:tenant/trust/anchors', formBody('64kb'), guard, page(addAnchorAction));
  router.post('/t/:tenant/trust/anchors/:sha256/remove', formBody('4kb'), guard, page(removeAnchorAction));
  router.post('/t/:tenant/trust/issuers', formBody('64kb'), guard, page(addIssuerAction));
  router.post('/t/:tenant/trust/issuers/remove', formBody('4kb'), guard, page(removeIssuerAction));
  router.post('/t/:tenant/trust/sources', formBody('64kb'), guard, page(addSourceAction));
  router.post(
    '/t/:tenant/trust/sources/:sourceId/:action(refresh|remove)',
    formBody('4kb'),
    guard,
    page(sourceAction),
  );
  router.get('/t/:tenant/relying-parties', guard, page(relyingPartiesPage));
  router.post('/t/:tenant/relying-parties', formBody('32kb'), guard, page(registerRelyingPartyAction));
  router.post(
    '/t/:tenant/relying-parties/:clientId/remove',
    formBody('4kb'),
    guard,
    page(removeRelyingPartyAction),
  );
  router.use(consoleErrorRenderer(ctx.logger));
  return router;
}

export { revokeSessionTokens };
