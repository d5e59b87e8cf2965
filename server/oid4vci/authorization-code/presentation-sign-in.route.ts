import type { Express } from 'express';
import { readCookie } from '../../http/read-cookie.js';
import { completePresentationSignIn } from './complete-presentation-sign-in.js';
import { finishSignIn } from './finish-sign-in.js';
import { PRESENTATION_PATH } from './presentation-sign-in.js';
import { cookieOptions, presentationCookie } from './presentation-sign-in-page.js';
import { type SignInCtx, signInResponses } from './sign-in-responses.js';

/**
 * GET of the presentation sign-in's completion: from the page once its wallet answered (`session`),
 * or from a same-device wallet's redirect (`state` and `code`, the OID4VP response_code). The
 * wallet's code when the presented credential matched, access_denied at its redirect otherwise.
 */
export function mountPresentationSignIn(app: Express, ctx: SignInCtx): void {
  const respond = signInResponses(ctx);
  app.get(
    PRESENTATION_PATH,
    respond.step(async (req, res) => {
      const { session, state, code } = req.query;
      const sessionId = typeof session === 'string' ? session : typeof state === 'string' ? state : '';
      const name = presentationCookie(sessionId);
      const signIn = await completePresentationSignIn(
        req.em,
        ctx.verifier,
        ctx.issuance.validator,
        sessionId,
        readCookie(req, name),
        typeof code === 'string' ? code : undefined,
      );
      res.clearCookie(name, cookieOptions(ctx));
      const granted = await finishSignIn(req.em, ctx.issuance.validator, ctx.shared.ttl, signIn);
      respond.grant(res, granted.code, granted.pending);
    }),
  );
}
