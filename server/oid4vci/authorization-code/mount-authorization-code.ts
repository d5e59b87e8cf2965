import type { Express } from 'express';
import { asyncHandler } from '../../http/async-handler.js';
import { formBody } from '../../http/body-parsers.js';
import { requireBodyOfType } from '../../http/media-type-guard.js';
import { servedRoles } from '../../oidc/served-roles.js';
import { notFoundError, OAuthError, sendOAuthError } from '../oauth-error.js';
import { mountHolderEmail } from './holder-email.route.js';
import { SignInError, startHolderSignIn } from './holder-sign-in.js';
import { mountOneTimeCode } from './one-time-code.route.js';
import { mountProviderCallback } from './provider-callback.route.js';
import { pushAuthorizationRequest } from './push-authorization-request.js';
import { type SignInCtx, signInResponses } from './sign-in-responses.js';

export const PAR_PATH = '/oauth2/par';

/**
 * The issuer's side of the authorization code flow (OID4VCI 1.0 section 5): PAR, and the
 * authorization endpoint for requests that come with a request_uri (the OpenID provider's logins
 * never do, so GET /oauth2/authorize without one goes on to server/oidc), then the holder's sign-in
 * forms. The token grant is dispatched by /oauth2/token (authorization-code-grant.ts).
 */
export function mountIssuanceAuthorization(app: Express, ctx: SignInCtx): void {
  const store = ctx.shared.ttl;
  const respond = signInResponses(ctx);
  const showSignIn = respond.step(async (req, res) => {
    const { client_id: clientId, request_uri: requestUri } = req.query;
    if (typeof clientId !== 'string' || typeof requestUri !== 'string')
      throw new SignInError('invalid_request', 'client_id and request_uri are required, once each');
    const { session, signIn } = await startHolderSignIn(req.em, store, clientId, requestUri);
    await respond.show(req, res, session, signIn);
  });
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

  app.get('/oauth2/authorize', (req, res, next) => {
    // The OpenID provider's logins come without a request_uri: they go on to server/oidc.
    if (req.query.request_uri === undefined) return next();
    showSignIn(req, res, next);
  });
  mountHolderEmail(app, ctx);
  mountOneTimeCode(app, ctx);
  mountProviderCallback(app, ctx);
}
