import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage } from '../console-layout.js';
import { answered, requireAccepted } from './api-refusals.js';
import { shownOnce, UUID } from './view-helpers.js';

const TOKEN_TEXTS = { notFound: 'There is no such token.' };

/** POST …/tokens: a new token through the tenant's API; its secret is shown on this page, once. */
export async function createTokenAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const form = req.body as { kind?: unknown; scope?: unknown; days?: unknown };
  const days = Number.parseInt(String(form.days ?? ''), 10);
  const kind = form.kind === 'scim' ? 'scim' : form.kind === 'integrator' ? 'integrator' : undefined;
  const scope = form.scope === 'read' ? 'read' : form.scope === 'full' ? 'full' : undefined;
  if (!kind || !scope || !Number.isInteger(days) || days < 1 || days > 366)
    throw new ConsolePageError(400, 'Not accepted', 'Choose a kind, a scope and 1 to 366 days.');
  const expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
  const answer = await c.tenant.api.createTenantToken({ body: { kind, scope, expires_at: expiresAt } });
  await requireAccepted(req, res, answer.status, [201], TOKEN_TEXTS);
  if (answer.status !== 201) return;
  const path = `${consoleBase(c.tenantId)}/tokens`;
  const t = answer.body;
  const body = `${shownOnce(`The new ${t.kind} token (${t.scope}), id ${t.id}`, t.token)}
<p>It works until ${escapeHtml(t.expires_at ?? '')}. Only its hash is kept.</p><p><a href="${escapeHtml(path)}">Back to the tokens</a></p>`;
  res.type('html').send(consolePage({ ...c, path }, 'Token created', body));
}

/** POST …/tokens/:id/revoke. */
export async function revokeTokenAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const tokenId = String(req.params.id);
  if (!UUID.test(tokenId)) throw new ConsolePageError(404, 'Not found', TOKEN_TEXTS.notFound);
  const answer = await c.tenant.api.revokeTenantToken({ params: { tokenId } });
  return answered(req, res, answer.status, `${consoleBase(c.tenantId)}/tokens`, 'token-revoked', TOKEN_TEXTS);
}
