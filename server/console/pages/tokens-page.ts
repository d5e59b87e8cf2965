import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage, csrfField } from '../console-layout.js';
import { requireRead } from './api-refusals.js';
import { doneNotice, statusBadge, time } from './view-helpers.js';

const stateOf = (t: { revoked_at: string | null; expires_at: string | null }) =>
  t.revoked_at ? 'revoked' : t.expires_at && Date.parse(t.expires_at) <= Date.now() ? 'expired' : 'valid';

/** The form that makes a token: kind, scope and a lifetime (the tenant's API wants one, ≤ 366 days). */
function createForm(c: ReturnType<typeof consoleOf>, path: string) {
  return `<h2>New token</h2><form class="action" method="post" action="${escapeHtml(path)}">${csrfField(c.session)}
<label for="kind">Kind</label><select id="kind" name="kind"><option value="integrator">integrator</option><option value="scim">scim</option></select>
<label for="scope">Scope</label><select id="scope" name="scope"><option value="full">full</option><option value="read">read (GET only)</option></select>
<label for="days">Valid for (days)</label><input id="days" name="days" type="number" min="1" max="366" value="90" required>
<button type="submit">Create the token</button></form>`;
}

/**
 * GET …/tokens: the tenant's integrator and SCIM tokens, never their secrets; the ones this console
 * session acts with are marked (revoking them ends what this session can do).
 */
export async function tokensPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const answer = await c.tenant.api.listTenantTokens();
  requireRead(answer, 'The tokens');
  const path = `${consoleBase(c.tenantId)}/tokens`;
  const admin = c.session.role !== 'auditor';
  const own = new Set(Object.values(c.session.tokens[c.tenantId] ?? {}));
  const rows = [...answer.body.items]
    .reverse()
    .map((t) => {
      const state = stateOf(t);
      const revoke =
        admin && state === 'valid'
          ? `<form class="action" method="post" action="${escapeHtml(`${path}/${t.id}/revoke`)}">${csrfField(c.session)}<button type="submit" class="danger" aria-label="Revoke token ${escapeHtml(t.id)}">Revoke</button></form>`
          : '';
      return `<tr id="token-${escapeHtml(t.id)}"><td class="mono">${escapeHtml(t.id)}${own.has(t.id) ? ' (this session)' : ''}</td><td>${escapeHtml(t.kind)}</td>
<td>${escapeHtml(t.scope)}</td><td>${statusBadge(state)}</td><td>${time(t.created_at)}</td><td>${time(t.expires_at)}</td><td>${time(t.revoked_at)}</td><td>${revoke}</td></tr>`;
    })
    .join('');
  const body = `${doneNotice(req.query.done)}${admin ? createForm(c, path) : ''}
<h2>Tokens</h2><table><thead><tr><th scope="col">Token</th><th scope="col">Kind</th><th scope="col">Scope</th><th scope="col">State</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Revoked</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody></table>`;
  res.type('html').send(consolePage({ ...c, path: req.path }, 'API tokens', body));
}
