import type { Express } from 'express';
import { finishSignIn } from './finish-sign-in.js';
import { completeProviderSignIn } from './provider-callback.js';
import { CALLBACK_PATH, type SignInCtx, signInResponses } from './sign-in-responses.js';

/**
 * GET of the tenant's OpenID provider redirecting the holder back: the wallet's code when the
 * provider vouched for the right address, access_denied at the wallet's redirect otherwise.
 */
export function mountProviderCallback(app: Express, ctx: SignInCtx): void {
  const respond = signInResponses(ctx);
  const services = {
    config: ctx.config,
    store: ctx.shared.ttl,
    sealing: ctx.verifier.sealing,
    validator: ctx.issuance.validator,
    logger: ctx.logger,
  };
  app.get(
    CALLBACK_PATH,
    respond.step(async (req, res) => {
      const signIn = await completeProviderSignIn(req.em, services, req.query as Record<string, unknown>);
      const { code, pending } = await finishSignIn(req.em, ctx.issuance.validator, ctx.shared.ttl, signIn);
      respond.grant(res, code, pending);
    }),
  );
}
