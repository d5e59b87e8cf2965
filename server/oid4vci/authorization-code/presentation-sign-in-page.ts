import type { Request, Response } from 'express';
import { renderPresentationPage } from '../../oidc/login-page.js';
import type { TenantPage } from '../../tenants/branded-page.js';
import type { HolderSignIn } from './holder-sign-in.js';
import { PRESENTATION_PATH, startPresentationSignIn } from './presentation-sign-in.js';
import type { SignInCtx } from './sign-in-responses.js';

const COOKIE_PATH = '/oauth2/authorize';
// One cookie per sign-in, so that two sign-ins in two tabs of one browser do not overwrite each other.
export const presentationCookie = (sessionId: string) => `vci_sign_in_${sessionId}`;

export const cookieOptions = (ctx: SignInCtx) => ({
  path: COOKIE_PATH,
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: ctx.config.issuerUrl.startsWith('https:'),
});

/**
 * The sign-in page of a tenant that asks for a presentation: the OpenID provider's login page and
 * script (QR code, same-device link, the browser's own wallet where it has the DC API; the status
 * over SSE), here completing at PRESENTATION_PATH, which the browser's cookie must reach.
 */
export async function showPresentationSignIn(
  req: Request,
  res: Response,
  ctx: SignInCtx,
  tenant: TenantPage,
  session: string,
  signIn: HolderSignIn,
) {
  const started = await startPresentationSignIn(req.em, ctx.verifier, session, signIn);
  const id = encodeURIComponent(started.sessionId);
  res.cookie(presentationCookie(started.sessionId), started.browserSecret, {
    ...cookieOptions(ctx),
    maxAge: started.expiresIn * 1000,
  });
  res.type('html').send(
    renderPresentationPage(started, {
      heading: `Receive your ${tenant.credentialName}`,
      lead: 'Scan the code with your wallet, or open the wallet on this device, and present the identity credential your organisation asks for (such as your PID). Its details must match what your organisation knows of you.',
      returnTo: 'your wallet',
      tenant,
      state: id,
      completeUrl: `${PRESENTATION_PATH}?session=${id}`,
    }),
  );
}
