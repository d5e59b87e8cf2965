import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage, csrfField } from '../console-layout.js';
import { TenantConsole } from '../tenant-console.entity.js';
import { requireRead } from './api-refusals.js';
import { doneNotice, time } from './view-helpers.js';

/** The console's own relying party of this tenant: its sign-in, not to be removed from here. */
export async function consoleClientId(req: Request, tenantId: string) {
  return (await req.em.findOne(TenantConsole, { tenantId }))?.oidcClientId ?? null;
}

/** The registration form: secret-based clients only (a private_key_jwt client's keys go through the API). */
const registerForm = (c: ReturnType<typeof consoleOf>, path: string) =>
  `<h2>Register a relying party</h2><form class="action" method="post" action="${escapeHtml(path)}">${csrfField(c.session)}
<label for="client_name">Name (shown on the login page)</label><input id="client_name" name="client_name" maxlength="200" required>
<label for="redirect_uris">Redirect URIs (one a line; https, or http on localhost)</label><textarea id="redirect_uris" name="redirect_uris" rows="3" cols="64" required></textarea>
<label for="auth_method">Client authentication</label><select id="auth_method" name="token_endpoint_auth_method"><option value="client_secret_basic">client_secret_basic</option><option value="client_secret_post">client_secret_post</option></select>
<label for="configuration">Credential asked for at login</label><input id="configuration" name="credential_configuration_id" value="LEARCredentialEmployee" maxlength="200" required>
<label for="claims_mapping">Claims mapping (JSON: ID token claim to credential claim path)</label><textarea id="claims_mapping" name="claims_mapping" rows="3" cols="64">{"email": ["mandatee", "email"]}</textarea>
<button type="submit">Register the relying party</button></form>
<p>Clients that authenticate with <code>private_key_jwt</code> are registered through the API (<code>POST /api/v1/oidc-clients</code>).</p>`;

/**
 * GET …/relying-parties: the tenant's OpenID Connect clients (never their secrets); register and
 * remove them. The console's own sign-in client is marked and cannot be removed here.
 */
export async function relyingPartiesPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const answer = await c.tenant.api.listTenantOidcClients();
  requireRead(answer, 'The relying parties');
  const path = `${consoleBase(c.tenantId)}/relying-parties`;
  const admin = c.session.role !== 'auditor';
  const own = await consoleClientId(req, c.tenantId);
  const rows = answer.body.items
    .map((rp) => {
      const name = rp.client_name ?? rp.client_id;
      const action =
        rp.client_id === own
          ? 'This console’s sign-in: not removable here'
          : admin
            ? `<form class="action" method="post" action="${escapeHtml(`${path}/${encodeURIComponent(rp.client_id)}/remove`)}">${csrfField(c.session)}<button type="submit" class="danger" aria-label="Remove ${escapeHtml(name)}">Remove</button></form>`
            : '';
      return `<tr id="rp-${escapeHtml(rp.client_id)}"><td>${escapeHtml(name)}</td><td class="mono">${escapeHtml(rp.client_id)}</td>
<td>${rp.redirect_uris.map(escapeHtml).join('<br>')}</td><td>${escapeHtml(rp.credential_configuration_id)}</td>
<td>${escapeHtml(Object.keys(rp.claims_mapping).join(', '))}</td><td>${escapeHtml(rp.token_endpoint_auth_method)}</td><td>${time(rp.created_at)}</td><td>${action}</td></tr>`;
    })
    .join('');
  const body = `${doneNotice(req.query.done)}<p>Applications that sign their users in with their credential through this service’s OpenID provider. The console’s own sign-in client is one of them and cannot be removed from the console: removing it would break the sign-ins under way (the API can remove it; the next sign-in registers it anew).</p>
${admin ? registerForm(c, path) : ''}<h2>Relying parties</h2>
<table><thead><tr><th scope="col">Name</th><th scope="col">Client id</th><th scope="col">Redirect URIs</th><th scope="col">Credential</th><th scope="col">Claims</th><th scope="col">Authentication</th><th scope="col">Registered</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="8">No relying parties.</td></tr>'}</tbody></table>`;
  res.type('html').send(consolePage({ ...c, path: req.path }, 'Relying parties', body));
}
