import type { Express, Request, Response } from 'express';
import type { AppContext } from '../../app-context.js';
import { asyncHandler } from '../../http/async-handler.js';
import { formBody } from '../../http/body-parsers.js';
import { requireBodyOfType } from '../../http/media-type-guard.js';
import { redirectTo } from '../../oidc/authorization-request.js';
import { servedRoles } from '../../oidc/served-roles.js';
import { allowLogo, loadTenantPage } from '../../tenants/branded-page.js';
import { notFoundError, OAuthError, sendOAuthError } from '../oauth-error.js';
import { countWrongOneTimeCode } from './count-wrong-one-time-code.js';
import { completeHolderSignIn, type HolderSignIn, SignInError, startHolderSignIn } from './holder-sign-in.js';
import { pushAuthorizationRequest } from './push-authorization-request.js';
import { maskEmail, renderSignInError, renderSignInPage } from './sign-in-page.js';

export const PAR_PATH = '/oauth2/par';
const SIGN_IN_PATH = '/oauth2/authorize/issuance';

type Ctx = Pick<AppContext, 'config' | 'issuance' | 'shared'>;

/**
 * The issuer's side of the authorization code flow (OID4VCI 1.0 section 5): PAR, and the
 * authorization endpoint for requests that come with a request_uri (the OpenID provider's logins
 * never do, so GET /oauth2/authorize without one goes on to server/oidc). The token grant is
 * dispatched by /oauth2/token (authorization-code-grant.ts).
 */
export function mountIssuanceAuthorization(app: Express, ctx: Ctx): void {
  const issuer = ctx.config.issuerUrl;
  const store = ctx.shared.ttl;
  app.post(
    PAR_PATH,
    formBody('16kb'),
    requireBodyOfType('application/x-www-form-urlencoded'),
    asyncHandler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      try {
        if (!servedRoles(ctx.config, req.hostname)?.issuer)
          throw notFoundError('no credential issuer at this host name');
        const pushed = await pushAuthorizationRequest(req, res, ctx.config, ctx.issuance.codes, store);
        res.status(201).json(pushed);
      } catch (e) {
        if (e instanceof OAuthError) return sendOAuthError(res, e);
        throw e;
      }
    }),
  );

  const showPage = async (req: Request, res: Response, session: string, s: HolderSignIn, error?: string) => {
    const tenant = await loadTenantPage(req.em, s.pending.tenantId, s.pending.configurationId);
    allowLogo(res, tenant);
    res.type('html').send(
      renderSignInPage({
        tenant,
        session,
        action: SIGN_IN_PATH,
        maskedEmail: maskEmail(s.email),
        expiresAt: new Date(s.expiresAt),
        ...(error ? { error } : {}),
      }),
    );
  };
  const fail = (res: Response, e: SignInError) => {
    if (!e.redirect) return res.status(400).type('html').send(renderSignInError(e.error, e.description));
    const params = { error: e.error, error_description: e.description, state: e.redirect.state };
    res.redirect(303, redirectTo(e.redirect.redirectUri, params, issuer));
  };

  app.get(
    '/oauth2/authorize',
    asyncHandler(async (req, res, next) => {
      if (req.query.request_uri === undefined) return next();
      res.setHeader('Cache-Control', 'no-store');
      const { client_id: clientId, request_uri: requestUri } = req.query;
      try {
        if (typeof clientId !== 'string' || typeof requestUri !== 'string')
          throw new SignInError('invalid_request', 'client_id and request_uri are required, once each');
        const { session, signIn } = await startHolderSignIn(req.em, store, clientId, requestUri);
        await showPage(req, res, session, signIn);
      } catch (e) {
        if (e instanceof SignInError) return fail(res, e);
        throw e;
      }
    }),
  );

  app.post(
    SIGN_IN_PATH,
    formBody('4kb'),
    requireBodyOfType('application/x-www-form-urlencoded'),
    asyncHandler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const { session, one_time_code: oneTimeCode } = (req.body ?? {}) as Record<string, unknown>;
      try {
        if (typeof session !== 'string' || typeof oneTimeCode !== 'string')
          throw new SignInError('invalid_request', 'session and one_time_code are required, once each');
        const outcome = await completeHolderSignIn(store, session, oneTimeCode.trim());
        if ('wrong' in outcome) {
          const offerLocked = await countWrongOneTimeCode(req.em, outcome.wrong.pending.issuanceId);
          if (offerLocked || outcome.attemptsLeft === 0)
            throw new SignInError('access_denied', 'too many wrong one-time codes', outcome.wrong.pending);
          res.status(400);
          return showPage(
            req,
            res,
            session,
            outcome.wrong,
            `Wrong code: ${outcome.attemptsLeft} attempts left.`,
          );
        }
        const { code, pending } = outcome;
        // RFC 9207: iss tells the wallet which authorization server answered (mix-up defence).
        res.redirect(303, redirectTo(pending.redirectUri, { code, state: pending.state }, issuer));
      } catch (e) {
        if (e instanceof SignInError) return fail(res, e);
        throw e;
      }
    }),
  );
}
