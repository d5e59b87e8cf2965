import type { Express } from 'express';
import { asyncHandler } from '../../http/async-handler.js';
import { formBody } from '../../http/body-parsers.js';
import { requireBodyOfType } from '../../http/media-type-guard.js';
import { InvalidEmail, submitHolderEmail } from './holder-email.js';
import { SignInError } from './holder-sign-in.js';
import { EMAIL_PATH, type SignInCtx, signInResponses } from './sign-in-responses.js';

/**
 * POST of the address form (wallet-initiated): the code form follows, worded the same whether the
 * address is known or not. An address that does not look like one gets the address form again.
 */
export function mountHolderEmail(app: Express, ctx: SignInCtx): void {
  const respond = signInResponses(ctx);
  const store = ctx.shared.ttl;
  app.post(
    EMAIL_PATH,
    formBody('4kb'),
    requireBodyOfType('application/x-www-form-urlencoded'),
    asyncHandler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const { session, email } = (req.body ?? {}) as Record<string, unknown>;
      try {
        if (typeof session !== 'string' || typeof email !== 'string')
          throw new SignInError('invalid_request', 'session and email are required, once each');
        const signIn = await submitHolderEmail(req.em, ctx.issuance.validator, store, session, email);
        await respond.show(req, res, session, signIn);
      } catch (e) {
        if (e instanceof InvalidEmail)
          return respond.show(req, res.status(400), session as string, e.signIn, e.message);
        if (e instanceof SignInError) return respond.fail(res, e);
        throw e;
      }
    }),
  );
}
