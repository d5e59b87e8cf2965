import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, csrfField } from '../console-layout.js';
import { answered, requireRead } from './api-refusals.js';

type Console = ReturnType<typeof consoleOf>;
const ISSUER_TEXTS = { notFound: 'There is no such trusted issuer.' };
const trustPath = (c: Console) => `${consoleBase(c.tenantId)}/trust`;

/** The section of the trust page listing the issuers trusted by their keys, with add and remove. */
export async function trustedIssuersSection(c: Console) {
  const answer = await c.tenant.api.listTenantTrustedIssuers();
  requireRead(answer, 'The trusted issuers');
  const admin = c.session.role !== 'auditor';
  const path = `${trustPath(c)}/issuers`;
  const rows = answer.body.items
    .map((i) => {
      const remove = admin
        ? `<form class="action" method="post" action="${escapeHtml(`${path}/remove`)}">${csrfField(c.session)}<input type="hidden" name="issuer" value="${escapeHtml(i.issuer)}"><button type="submit" class="danger" aria-label="Stop trusting ${escapeHtml(i.issuer)}">Remove</button></form>`
        : '';
      const keys = i.jwks ? `${i.jwks.keys.length} configured key(s)` : 'from its jwt-vc-issuer metadata';
      return `<tr><td>${escapeHtml(i.issuer)}</td><td>${escapeHtml(keys)}</td><td>${remove}</td></tr>`;
    })
    .join('');
  const add = admin
    ? `<form class="action" method="post" action="${escapeHtml(path)}">${csrfField(c.session)}
<label for="issuer">Issuer (its iss)</label><input id="issuer" name="issuer" type="url" maxlength="2000" required>
<label for="jwks">Its keys (JWKS JSON; empty: read from its metadata)</label><textarea id="jwks" name="jwks" rows="3" cols="64"></textarea>
<button type="submit">Trust the issuer</button></form>`
    : '';
  return `<h2>Trusted issuers</h2><p>Issuers whose credentials are accepted by their keys.</p>${add}
<table><thead><tr><th scope="col">Issuer</th><th scope="col">Keys</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="3">No trusted issuers.</td></tr>'}</tbody></table>`;
}

/** POST …/trust/issuers: trusted through the tenant's API (a refused one says why). */
export async function addIssuerAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const form = req.body as { issuer?: unknown; jwks?: unknown };
  const jwksText = String(form.jwks ?? '').trim();
  let jwks: { keys: Record<string, unknown>[] } | undefined;
  try {
    jwks = jwksText ? JSON.parse(jwksText) : undefined;
  } catch {
    throw new ConsolePageError(400, 'Not accepted', 'The keys must be a JWKS in JSON; nothing was changed.');
  }
  const answer = await c.tenant.api.putTenantTrustedIssuer({
    body: { issuer: String(form.issuer ?? '').trim(), ...(jwks ? { jwks } : {}) },
  });
  if (answer.status === 400)
    throw new ConsolePageError(400, 'Not accepted', `The issuer was refused: ${answer.body.detail ?? ''}`);
  const warned = (answer.status === 200 || answer.status === 201) && answer.body.warnings.length > 0;
  const done = warned ? 'issuer-trusted-unresolved' : 'issuer-trusted';
  return answered(req, res, answer.status, trustPath(c), done, ISSUER_TEXTS, [200, 201]);
}

/** POST …/trust/issuers/remove. */
export async function removeIssuerAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const issuer = String((req.body as { issuer?: unknown }).issuer ?? '');
  const answer = await c.tenant.api.removeTenantTrustedIssuer({ body: { issuer } });
  return answered(req, res, answer.status, trustPath(c), 'issuer-removed', ISSUER_TEXTS);
}
