import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../app-context.js';
import { asyncHandler } from '../../http/async-handler.js';
import { formBody } from '../../http/body-parsers.js';
import { requireBodyOfType } from '../../http/media-type-guard.js';
import { redirectTo } from '../../oidc/authorization-request.js';
import { allowLogo, loadTenantPage } from '../../tenants/branded-page.js';
import { type HolderSignIn, SignInError } from './holder-sign-in.js';
import type { PendingAuthorization } from './pending-authorization.js';
import { showPresentationSignIn } from './presentation-sign-in-page.js';
import { providerAuthorizationUrl } from './provider-sign-in.js';
import { maskEmail, renderEmailPage, renderSignInError, renderSignInPage } from './sign-in-page.js';

export const SIGN_IN_PATH = '/oauth2/authorize/issuance';
export const EMAIL_PATH = `${SIGN_IN_PATH}/email`;
export const CALLBACK_PATH = `${SIGN_IN_PATH}/callback`;

/** The body parsing of the sign-in's forms: small, and of the one media type a form posts. */
export const signInForm = [formBody('4kb'), requireBodyOfType(['application/x-www-form-urlencoded'])];

export type SignInCtx = Pick<AppContext, 'config' | 'issuance' | 'shared' | 'verifier' | 'logger'>;

/**
 * How every step of the holder's sign-in answers: the page of the step it is at (the tenant's look;
 * the service's own before a wallet-initiated holder is known, and after, so the look does not tell
 * whose address it was), the wallet's redirect with a code, or with an error.
 */
export function signInResponses(ctx: SignInCtx) {
  const issuer = ctx.config.issuerUrl;
  const brand = async (req: Request, res: Response, pending: PendingAuthorization) => {
    const tenant = await loadTenantPage(
      req.em,
      pending.tenantId,
      pending.configurationId,
      ctx.config.ISSUER_NAME,
    );
    allowLogo(res, tenant);
    return tenant;
  };
  return {
    /** The step the sign-in is at: the holder's address, the one-time code, the presentation, or the provider. */
    async show(req: Request, res: Response, session: string, s: HolderSignIn, error?: string) {
      if (s.external)
        return res.redirect(
          303,
          await providerAuthorizationUrl(req.em, ctx.shared.ttl, ctx.config, session, s),
        );
      const tenant = await brand(req, res, s.pending);
      if (s.presentation) return showPresentationSignIn(req, res, ctx, tenant, session, s);
      const common = { tenant, session, expiresAt: new Date(s.expiresAt), ...(error ? { error } : {}) };
      if (!s.email) return res.type('html').send(renderEmailPage({ ...common, action: EMAIL_PATH }));
      res.type('html').send(
        renderSignInPage({
          ...common,
          action: SIGN_IN_PATH,
          maskedEmail: maskEmail(s.email),
          typedByHolder: !s.pending.issuanceId,
        }),
      );
    },
    fail(res: Response, e: SignInError) {
      if (!e.redirect) return res.status(400).type('html').send(renderSignInError(e.error, e.description));
      const params = { error: e.error, error_description: e.description, state: e.redirect.state };
      res.redirect(303, redirectTo(e.redirect.redirectUri, params, issuer));
    },
    /**
     * One step of the sign-in as a handler: never cached, and a SignInError answered as `fail` says
     * (the page, or the wallet's redirect); anything else goes on to the error handler.
     */
    step(handle: (req: Request, res: Response) => Promise<unknown>): RequestHandler {
      return asyncHandler(async (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        try {
          await handle(req, res);
        } catch (e) {
          if (e instanceof SignInError) return this.fail(res, e);
          throw e;
        }
      });
    },
    /** RFC 9207: iss tells the wallet which authorization server answered (mix-up defence). */
    grant(res: Response, code: string, pending: PendingAuthorization) {
      res.redirect(303, redirectTo(pending.redirectUri, { code, state: pending.state }, issuer));
    },
  };
}
