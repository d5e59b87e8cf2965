import type { Express } from 'express';
import { mountHolderEmail } from './holder-email.route.js';
import { SignInError, startHolderSignIn } from './holder-sign-in.js';
import { mountOneTimeCode } from './one-time-code.route.js';
import { mountPresentationSignIn } from './presentation-sign-in.route.js';
import { mountProviderCallback } from './provider-callback.route.js';
import { type SignInCtx, signInResponses } from './sign-in-responses.js';

/**
 * The issuer's side of the authorization code flow (OID4VCI 1.0 section 5): the authorization
 * endpoint for the request_uris of its PAR (server/oidc mounts GET /oauth2/authorize first and hands
 * on every request_uri but its relying parties'), then the holder's sign-in forms. PAR
 * (push-authorization-request.ts) and the token grant (authorization-code-grant.ts) are dispatched
 * by /oauth2/par and /oauth2/token.
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
  app.get('/oauth2/authorize', (req, res, next) => {
    if (req.query.request_uri === undefined) return next();
    showSignIn(req, res, next);
  });
  mountHolderEmail(app, ctx);
  mountOneTimeCode(app, ctx);
  mountProviderCallback(app, ctx);
  mountPresentationSignIn(app, ctx);
}
