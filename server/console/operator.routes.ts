import { type Request, type Response, Router } from 'express';
import { createAdminClient } from '../../clients/integrator/src/index.js';
import { asyncHandler } from '../http/async-handler.js';
import { formBody } from '../http/body-parsers.js';
import { escapeHtml } from '../http/escape-html.js';
import { type ConsoleDeps, cookieOptions, sessionCookieName } from './console-deps.js';
import { ConsolePageError } from './console-errors.js';
import { sessionOf } from './console-guard.js';
import { consolePage } from './console-layout.js';
import { operatorKeyRoutes } from './operator-keys.js';
import { spendOperatorLink } from './operator-links.js';

const OPERATOR = { name: 'Operator', email: null, credentialId: null };
const frame = (session: Parameters<typeof consolePage>[0]['session'], path: string) => ({
  tenantId: null,
  tenantName: 'Credential Service',
  logoUri: null,
  session,
  path,
});

/**
 * The deployment's operator: signs in with the one-time link `console link` prints (a page with a
 * button, so that a link preview cannot spend it), then sees every tenant and the signing keys
 * through the admin API with ADMIN_TOKEN, which stays on the server (keys: operator-keys.ts).
 */
export function operatorRoutes(d: ConsoleDeps): Router {
  const router = Router();
  const admin = () => createAdminClient({ baseUrl: d.config.publicUrl, token: d.config.ADMIN_TOKEN ?? '' });
  const operatorSession = async (req: Request) => {
    const found = await sessionOf(d, req);
    if (found?.session.role !== 'operator')
      throw new ConsolePageError(404, 'Not found', 'Sign in as the operator first.');
    return found.session;
  };

  router.get('/operator', (req, res) => {
    const link = typeof req.query.link === 'string' ? req.query.link : '';
    const form = `<form method="post" action="/console/operator" class="panel">
<input type="hidden" name="link" value="${escapeHtml(link)}">
<p>This link signs you in to the console as the operator of this deployment. It works once.</p>
<button type="submit">Sign in as the operator</button></form>`;
    res.type('html').send(consolePage(frame(null, req.path), 'Operator sign-in', form));
  });

  router.post(
    '/operator',
    formBody('4kb'),
    asyncHandler(async (req: Request, res: Response) => {
      if (!d.config.ADMIN_TOKEN || !(await spendOperatorLink(d.ttl, (req.body as { link?: unknown }).link))) {
        d.logger.warn('console: an operator link was refused (unknown, used or expired)');
        throw new ConsolePageError(
          403,
          'Link not valid',
          'This sign-in link is unknown, used or expired. Ask the CLI for a new one.',
        );
      }
      const created = await d.sessions.create({
        role: 'operator',
        tenantId: null,
        person: OPERATOR,
        tokens: {},
      });
      d.logger.info('console: the operator signed in');
      res.cookie(sessionCookieName(d), created.id, cookieOptions(d));
      res.redirect(303, '/console/operator/tenants');
    }),
  );

  router.get(
    '/operator/tenants',
    asyncHandler(async (req, res) => {
      const session = await operatorSession(req);
      const answer = await admin().listTenants({ query: { limit: 500, offset: 0 } });
      const items = answer.status === 200 ? answer.body.items : [];
      const rows = items
        .map((t) => {
          const href = `/console/t/${encodeURIComponent(t.id)}/issuances`;
          return `<tr><td><a href="${escapeHtml(href)}">${escapeHtml(t.id)}</a></td><td>${escapeHtml(t.name)}</td><td>${escapeHtml(t.delivery)}</td></tr>`;
        })
        .join('');
      const body = `<table><caption class="skip">Tenants</caption><thead><tr><th scope="col">Tenant</th><th scope="col">Name</th><th scope="col">Delivery</th></tr></thead><tbody>${rows}</tbody></table>`;
      res.type('html').send(consolePage(frame(session, req.path), 'All tenants', body));
    }),
  );

  router.use(operatorKeyRoutes(admin, operatorSession, frame));
  return router;
}
