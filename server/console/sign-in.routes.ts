import { timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Request, type Response, Router } from 'express';
import { TenantId } from '../../contract/admin/tenant.js';
import { asyncHandler } from '../http/async-handler.js';
import { formBody } from '../http/body-parsers.js';
import { auditConsole } from './console-audit.js';
import {
  type ConsoleDeps,
  cookieOf,
  cookieOptions,
  sessionCookieName,
  signInCookieName,
} from './console-deps.js';
import { ConsolePageError } from './console-errors.js';
import { openTenant, sessionOf } from './console-guard.js';
import { consoleCallbackUrl, consoleClientOf } from './console-relying-party.js';
import { roleOf, tenantCredentialOf } from './console-role.js';
import { csrfMatches } from './console-session.js';
import { finishEmployeeSignIn, startEmployeeSignIn, takePendingSignIn } from './employee-sign-in.js';
import { provisioningConfigurationOf } from './provisioning-configuration.js';
import { revokeSessionTokens } from './session-tokens.js';
import { TenantConsole } from './tenant-console.entity.js';

const noConsole = () =>
  new ConsolePageError(404, 'No console', 'This organisation has no console sign-in, or does not exist.');

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Employee sign-in (the service's own OpenID provider), the callback, and sign-out. */
export function signInRoutes(d: ConsoleDeps): Router {
  const router = Router();
  const opUrl = d.config.verifierUrl;
  /** The tenant's console settings and the console's relying party; "no console" when there are none. */
  const consoleSignIn = async (em: EntityManager, tenantId: string) => {
    const settings = await em.findOne(TenantConsole, { tenantId });
    if (!settings) throw noConsole();
    const configuration = await provisioningConfigurationOf(em, tenantId);
    const client = await consoleClientOf(em, d.sealing, settings, d.config.publicUrl, configuration);
    return { settings, client, redirectUri: consoleCallbackUrl(d.config.publicUrl, tenantId) };
  };

  router.get(
    '/t/:tenant/sign-in',
    asyncHandler(async (req, res) => {
      const tenantId = String(req.params.tenant);
      if (!TenantId.safeParse(tenantId).success) throw noConsole();
      const { client, redirectUri } = await consoleSignIn(req.em, tenantId);
      const started = await startEmployeeSignIn(d.ttl, opUrl, tenantId, client, redirectUri);
      res.cookie(signInCookieName(d), started.state, cookieOptions(d, started.maxAgeSeconds * 1000));
      res.redirect(303, started.location);
    }),
  );

  router.get(
    '/t/:tenant/callback',
    asyncHandler(async (req, res) => {
      const tenantId = String(req.params.tenant);
      const state = typeof req.query.state === 'string' ? req.query.state : '';
      const cookie = cookieOf(req.headers.cookie, signInCookieName(d)) ?? '';
      res.clearCookie(signInCookieName(d), cookieOptions(d));
      // Only the browser that started this sign-in may finish it (its cookie holds the state).
      if (!state || !sameText(state, cookie)) throw signInAgain();
      const pending = await takePendingSignIn(d.ttl, state);
      if (!pending || pending.tenantId !== tenantId) throw signInAgain();
      if (typeof req.query.code !== 'string')
        throw new ConsolePageError(403, 'Not signed in', 'The sign-in was cancelled or failed.');
      const { settings, client, redirectUri } = await consoleSignIn(req.em, tenantId);
      let claims: Record<string, unknown>;
      try {
        claims = await finishEmployeeSignIn(opUrl, client, pending, req.query.code, redirectUri);
      } catch (e) {
        d.logger.warn({ err: (e as Error).message, tenantId }, 'console sign-in failed');
        throw signInAgain();
      }
      const name = [claims.given_name, claims.family_name].filter((v) => typeof v === 'string').join(' ');
      const email = typeof claims.email === 'string' ? claims.email : null;
      const credential = await tenantCredentialOf(
        req.em,
        tenantId,
        d.config.issuerUrl,
        claims.credential_status,
      );
      const person = { name: name || email || 'unknown', email, credentialId: credential?.id ?? null };
      const role = roleOf(settings, claims.powers);
      if (!credential || !role) {
        const reason = !credential ? 'credential_not_issued_to_tenant_or_not_valid' : 'power_missing';
        await auditConsole(req.em, tenantId, 'console.sign_in_refused', { person }, { reason });
        throw new ConsolePageError(
          403,
          'No access',
          !credential
            ? 'The credential you presented is not a valid credential of this organisation.'
            : 'Your credential does not carry the power this organisation requires for its console.',
        );
      }
      const created = await d.sessions.create({ role, tenantId, person, tokens: {} });
      await openTenant(d, req.em, created.id, created.session, tenantId);
      res.cookie(sessionCookieName(d), created.id, cookieOptions(d));
      res.redirect(303, `/console/t/${encodeURIComponent(tenantId)}/issuances`);
    }),
  );

  router.post(
    '/sign-out',
    formBody('4kb'),
    asyncHandler(async (req: Request, res: Response) => {
      const found = await sessionOf(d, req);
      if (found) {
        const { id, session } = found;
        if (!csrfMatches(session, (req.body as { csrf?: unknown }).csrf))
          throw new ConsolePageError(403, 'Refused', 'The sign-out was not sent from this console.');
        await d.sessions.end(id);
        await revokeSessionTokens(req.em, session);
        for (const tenantId of Object.keys(session.tokens))
          await auditConsole(req.em, tenantId, 'console.signed_out', session);
      }
      res.clearCookie(sessionCookieName(d), cookieOptions(d));
      res.redirect(303, '/console?signed_out=1');
    }),
  );
  return router;
}

const signInAgain = () =>
  new ConsolePageError(
    400,
    'Sign in again',
    'This sign-in could not be completed in this browser. Start again.',
  );
