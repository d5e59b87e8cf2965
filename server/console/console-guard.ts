import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import { cachedTenant } from '../tenants/tenant-cache.js';
import { auditConsole } from './console-audit.js';
import { type ConsoleDeps, cookieOf, sessionCookieName } from './console-deps.js';
import { ConsolePageError } from './console-errors.js';
import { type ConsoleSession, csrfMatches, type SessionTokens } from './console-session.js';
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
  const tenant = await cachedTenant(req.unforkedEm, tenantId);
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
  const tokens = session.tokens[tenantId] ?? (await openTenant(d, req.em, id, session, tenantId));
  res.locals.console = {
    sessionId: id,
    session,
    tenantId,
    tenantName: tenant.name,
    logoUri: tenant.branding?.logo_uri ?? null,
    tenant: tenantApiOf(d.sealing, d.config.publicUrl, tenantId, tokens),
  } satisfies ConsoleRequest;
  next();
};

/**
 * Gives the session its API tokens of a tenant (at sign-in, or at the operator's first visit),
 * saves it, and records `console.signed_in`, which ties the tokens to the person.
 */
export async function openTenant(
  d: ConsoleDeps,
  em: EntityManager,
  sessionId: string,
  session: ConsoleSession,
  tenantId: string,
): Promise<SessionTokens> {
  const tokens = await mintSessionTokens(em, d.sealing, tenantId, session.role, d.sessions.deadline(session));
  session.tokens[tenantId] = tokens;
  await d.sessions.update(sessionId, session);
  await auditConsole(em, tenantId, 'console.signed_in', session, {
    integrator_token: tokens.integratorId,
    scim_token: tokens.scimId,
  });
  return tokens;
}
