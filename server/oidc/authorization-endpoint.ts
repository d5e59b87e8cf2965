import type { Express, Response } from 'express';
import type { AppContext } from '../app-context.js';
import { asyncHandler } from '../http/async-handler.js';
import { readCookie } from '../http/read-cookie.js';
import { allowLogo, loadTenantPage, renderErrorPage } from '../tenants/branded-page.js';
import { AuthorizationError, redirectTo } from './authorization-request.js';
import { issueAuthorizationCode } from './issue-authorization-code.js';
import { LOGIN_SCRIPT_PATH, renderPresentationPage } from './login-page.js';
import { LOGIN_SCRIPT } from './login-script.js';
import { isSignInRequestUri } from './pushed-sign-in.js';
import { signInRequestOf } from './sign-in-request.js';
import { COMPLETE_PATH, startLogin } from './start-login.js';

const COOKIE_PATH = '/oauth2/authorize';
// One cookie per login, so that two sign-ins in two tabs of one browser do not overwrite each other.
const cookieName = (sessionId: string) => `oidc_login_${sessionId}`;

type Ctx = Pick<AppContext, 'config' | 'verifier' | 'shared'>;

/** Renders an AuthorizationError: to the client's redirect_uri when it is trusted, else as a page. */
function sendAuthorizationError(res: Response, e: AuthorizationError, issuer: string) {
  if (e.redirect) {
    const params = { error: e.error, error_description: e.description, state: e.redirect.state };
    return res.redirect(303, redirectTo(e.redirect.uri, params, issuer));
  }
  res.status(400).type('html').send(renderErrorPage(e.error, e.description));
}

/**
 * The browser side of the OpenID Connect login: GET /oauth2/authorize takes the request a relying
 * party pushed (or, where allowed, the query itself: sign-in-request.ts), starts a presentation
 * session and shows the login page; a request_uri of the issuer's PAR goes on to its sign-in; the page's script (GET /oauth2/login.js) waits
 * for the wallet and goes to GET /oauth2/authorize/complete, which sends the browser back to the
 * client with a code (or an error).
 */
export function mountAuthorizationEndpoint(app: Express, ctx: Ctx): void {
  const issuer = ctx.config.verifierUrl;
  const secure = issuer.startsWith('https:');

  app.get(
    '/oauth2/authorize',
    asyncHandler(async (req, res, next) => {
      const requestUri = req.query.request_uri;
      if (requestUri !== undefined && !isSignInRequestUri(requestUri)) return next();
      res.setHeader('Cache-Control', 'no-store');
      try {
        const request = await signInRequestOf(req, ctx.config, ctx.shared.ttl);
        const login = await startLogin(req.em, ctx.verifier, request);
        res.cookie(cookieName(login.sessionId), login.browserSecret, {
          path: COOKIE_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure,
          maxAge: login.expiresIn * 1000,
        });
        const session = encodeURIComponent(login.sessionId);
        const { tenantId, credentialConfigurationId } = request.client;
        const tenant = await loadTenantPage(req.em, tenantId, credentialConfigurationId);
        allowLogo(res, tenant);
        const clientName = request.client.name ?? request.client.id;
        res.type('html').send(
          renderPresentationPage(login, {
            heading: `Sign in to ${clientName}`,
            lead: `Scan the code with your wallet and present your ${tenant.credentialName}.`,
            returnTo: clientName,
            tenant,
            state: session,
            completeUrl: `/oauth2/authorize/complete?session=${session}`,
            ...(login.approval ? { approval: login.approval } : {}),
          }),
        );
      } catch (e) {
        if (e instanceof AuthorizationError) return sendAuthorizationError(res, e, issuer);
        throw e;
      }
    }),
  );

  app.get(
    COMPLETE_PATH,
    asyncHandler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      // The page links here with `session`; the wallet's same-device redirect with `state` and
      // `code` (the OID4VP 1.0 section 8.2 response_code, named as the redirects of SPEC 2.5).
      const { session, state, code: responseCode } = req.query;
      const sessionId = typeof session === 'string' ? session : typeof state === 'string' ? state : '';
      try {
        const name = cookieName(sessionId);
        const outcome = await issueAuthorizationCode(
          req.em,
          ctx.verifier,
          sessionId,
          readCookie(req, name),
          typeof responseCode === 'string' ? responseCode : undefined,
        );
        res.clearCookie(name, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
        res.redirect(303, redirectTo(outcome.redirectUri, outcome.params, issuer));
      } catch (e) {
        if (e instanceof AuthorizationError) return sendAuthorizationError(res, e, issuer);
        throw e;
      }
    }),
  );

  app.get(LOGIN_SCRIPT_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('text/javascript').send(LOGIN_SCRIPT);
  });
}
