import type { NextFunction, Request, Response } from 'express';
import { Tenant } from '../tenants/tenant.entity.js';
import { auditConsole } from './console-audit.js';
import { type ConsoleDeps, cookieOf, sessionCookieName } from './console-deps.js';
import { ConsolePageError } from './console-errors.js';
import type { ConsoleSession } from './console-session.js';
import { csrfMatches } from './console-session.js';
import { mintSessionTokens, revokeSessionTokens, type TenantApi, tenantApiOf } from './session-tokens.js';

/** What a tenant page has once the guard let it through. */
export interface ConsoleRequest {
  sessionId: string;
  session: ConsoleSession;
  tenantId: string;
  tenantName: string;
  logoUri: string | null;
  tenant: TenantApi;
}

export const consoleOf = (res: Response) => res.locals.console as ConsoleRequest;

/**
 * The request's live session, if its cookie names one. One that has been idle too long ends here,
 * and the API tokens it held are revoked now rather than left valid until the absolute limit.
 */
export async function sessionOf(d: ConsoleDeps, req: Request) {
  const id = cookieOf(req.headers.cookie, sessionCookieName(d));
  const session = id ? await d.sessions.load(id, (s) => revokeSessionTokens(req.em, s)) : undefined;
  return id && session ? { id, session } : undefined;
}

/**
 * Guards /console/t/:tenant/…: a live session (else back to the start page, which says the session
 * ended), of this tenant (another tenant's id in the URL is a 404, audited, whoever asks), with the
 * tenant's API tokens (minted for the operator on first visit). POSTs must carry the session's CSRF
 * token; one without it changes nothing and is audited.
 */
export const tenantGuard = (d: ConsoleDeps) => async (req: Request, res: Response, next: NextFunction) => {
  const tenantId = String(req.params.tenant);
  const found = await sessionOf(d, req);
  if (!found) {
    if (req.method === 'GET') return res.redirect(303, '/console?ended=1');
    throw new ConsolePageError(401, 'Signed out', 'Your session has ended. Sign in again.');
  }
  const { id, session } = found;
  const tenant = await req.em.findOne(Tenant, { id: tenantId });
  if (!tenant || (session.role !== 'operator' && session.tenantId !== tenantId)) {
    if (session.tenantId)
      await auditConsole(req.em, session.tenantId, 'console.request_refused', session, {
        reason: 'another_tenant',
        path: req.path.slice(0, 200),
      });
    throw new ConsolePageError(404, 'Not found', 'There is no such page in your console.');
  }
  if (req.method === 'POST' && !csrfMatches(session, (req.body as { csrf?: unknown } | undefined)?.csrf)) {
    await auditConsole(req.em, tenantId, 'console.request_refused', session, {
      reason: 'csrf_token_missing_or_wrong',
      path: req.path.slice(0, 200),
    });
    throw new ConsolePageError(
      403,
      'Refused',
      'The form was not sent from this console session. Nothing was changed.',
    );
  }
  if (!session.tokens[tenantId]) {
    session.tokens[tenantId] = await mintSessionTokens(
      req.em,
      d.sealing,
      tenantId,
      session.role,
      d.sessions.deadline(session),
    );
    await d.sessions.update(id, session);
    await auditConsole(req.em, tenantId, 'console.signed_in', session, {
      integrator_token: session.tokens[tenantId]?.integratorId,
      scim_token: session.tokens[tenantId]?.scimId,
    });
  }
  res.locals.console = {
    sessionId: id,
    session,
    tenantId,
    tenantName: tenant.name,
    logoUri: tenant.branding?.logo_uri ?? null,
    tenant: tenantApiOf(d.sealing, d.config.publicUrl, tenantId, session.tokens[tenantId] as never),
  } satisfies ConsoleRequest;
  next();
};
