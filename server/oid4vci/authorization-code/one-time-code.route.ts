import type { Express, Request } from 'express';
import { countWrongCodeForAddress } from './address-limits.js';
import { countWrongOneTimeCode } from './count-wrong-one-time-code.js';
import { finishSignIn } from './finish-sign-in.js';
import { completeHolderSignIn, type HolderSignIn, SignInError } from './holder-sign-in.js';
import { SIGN_IN_PATH, type SignInCtx, signInForm, signInResponses } from './sign-in-responses.js';

/**
 * A wrong code counts against the offer (issuer-initiated), or against the address the holder typed
 * (wallet-initiated, known or not: the same either way). True when no attempt is left there.
 */
async function countWrong(req: Request, ctx: SignInCtx, s: HolderSignIn) {
  if (s.pending.issuanceId) return countWrongOneTimeCode(req.em, s.pending.issuanceId);
  return countWrongCodeForAddress(ctx.shared.ttl, s.email ?? '');
}

/** POST of the one-time code form: the wallet's code on the right one, the form again on a wrong one. */
export function mountOneTimeCode(app: Express, ctx: SignInCtx): void {
  const respond = signInResponses(ctx);
  app.post(
    SIGN_IN_PATH,
    ...signInForm,
    respond.step(async (req, res) => {
      const { session, one_time_code: oneTimeCode } = (req.body ?? {}) as Record<string, unknown>;
      if (typeof session !== 'string' || typeof oneTimeCode !== 'string')
        throw new SignInError('invalid_request', 'session and one_time_code are required, once each');
      const outcome = await completeHolderSignIn(ctx.shared.ttl, session, oneTimeCode.trim());
      if ('wrong' in outcome) {
        const noneLeft = await countWrong(req, ctx, outcome.wrong);
        if (noneLeft || outcome.attemptsLeft === 0)
          throw new SignInError('access_denied', 'too many wrong one-time codes', outcome.wrong.pending);
        res.status(400);
        const error = `Wrong code: ${outcome.attemptsLeft} attempts left.`;
        return respond.show(req, res, session, outcome.wrong, error);
      }
      const { code, pending } = await finishSignIn(
        req.em,
        ctx.issuance.validator,
        ctx.shared.ttl,
        outcome.signedIn,
      );
      respond.grant(res, code, pending);
    }),
  );
}
