import type { Express } from 'express';
import { InvalidEmail, submitHolderEmail } from './holder-email.js';
import { SignInError } from './holder-sign-in.js';
import { EMAIL_PATH, type SignInCtx, signInForm, signInResponses } from './sign-in-responses.js';

/**
 * POST of the address form (wallet-initiated): the code form follows, worded the same whether the
 * address is known or not. An address that does not look like one gets the address form again.
 */
export function mountHolderEmail(app: Express, ctx: SignInCtx): void {
  const respond = signInResponses(ctx);
  const store = ctx.shared.ttl;
  app.post(
    EMAIL_PATH,
    ...signInForm,
    respond.step(async (req, res) => {
      const { session, email } = (req.body ?? {}) as Record<string, unknown>;
      if (typeof session !== 'string' || typeof email !== 'string')
        throw new SignInError('invalid_request', 'session and email are required, once each');
      try {
        const signIn = await submitHolderEmail(req.em, ctx.issuance.validator, store, session, email);
        await respond.show(req, res, session, signIn);
      } catch (e) {
        if (!(e instanceof InvalidEmail)) throw e;
        await respond.show(req, res.status(400), session, e.signIn, e.message);
      }
    }),
  );
}
