import type { Request, Response } from 'express';
import { TrustServiceType, TrustSourceType } from '../../../contract/admin/trust-source.js';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, csrfField } from '../console-layout.js';
import { answered, requireRead } from './api-refusals.js';
import { statusBadge, time, UUID } from './view-helpers.js';

type Console = ReturnType<typeof consoleOf>;
const SOURCE_TEXTS = { notFound: 'There is no such trust source.' };
const sourcesPath = (c: Console) => `${consoleBase(c.tenantId)}/trust/sources`;

const addForm = (c: Console) => {
  const types = TrustSourceType.options.map((t) => `<option value="${t}">${t}</option>`).join('');
  const services = TrustServiceType.options
    .map((t) => `<label><input type="checkbox" name="service_types" value="${t}"> ${t}</label>`)
    .join(' ');
  return `<form class="action" method="post" action="${escapeHtml(sourcesPath(c))}">${csrfField(c.session)}
<label for="source-type">Kind of list</label><select id="source-type" name="type">${types}</select>
<label for="source-url">Published at (https)</label><input id="source-url" name="url" type="url" maxlength="2000" required>
<label for="signer">The list operator’s signing certificate (PEM)</label><textarea id="signer" name="signer_certificate" rows="4" cols="64" maxlength="20000" required></textarea>
<fieldset><legend>Trusted for</legend>${services}</fieldset><button type="submit">Add the trust source</button></form>`;
};

/** The section of the trust page listing the published lists trusted, with their status and error. */
export async function trustSourcesSection(c: Console) {
  const answer = await c.tenant.api.listTenantTrustSources();
  requireRead(answer, 'The trust sources');
  const admin = c.session.role !== 'auditor';
  const rows = answer.body.items
    .map((s) => {
      const base = `${sourcesPath(c)}/${s.id}`;
      const actions = admin
        ? `<form class="action" method="post" action="${escapeHtml(`${base}/refresh`)}">${csrfField(c.session)}<button type="submit" aria-label="Refresh ${escapeHtml(s.url)}">Refresh</button></form>
<form class="action" method="post" action="${escapeHtml(`${base}/remove`)}">${csrfField(c.session)}<button type="submit" class="danger" aria-label="Remove ${escapeHtml(s.url)}">Remove</button></form>`
        : '';
      return `<tr id="source-${escapeHtml(s.id)}"><td>${escapeHtml(s.url)}</td><td>${escapeHtml(s.type)}</td><td>${escapeHtml(s.service_types.join(', '))}</td>
<td>${statusBadge(s.status.state)}</td><td class="error">${escapeHtml(s.status.error ?? '')}</td><td>${s.status.entities}</td><td>${time(s.status.fetched_at)}</td><td>${actions}</td></tr>`;
    })
    .join('');
  return `<h2>Trust sources</h2><p>Published lists (ETSI trusted lists, the LOTL, lists of trusted entities) whose entities are trusted for the services named. Stale: the last fetch failed and the last good copy still vouches; failed: nothing of it vouches.</p>
${admin ? addForm(c) : ''}<table><thead><tr><th scope="col">List</th><th scope="col">Kind</th><th scope="col">Trusted for</th><th scope="col">Status</th><th scope="col">Last error</th><th scope="col">Entities</th><th scope="col">Fetched</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="8">No trust sources.</td></tr>'}</tbody></table>`;
}

/** POST …/trust/sources: added through the tenant's API and fetched at once (its status shows how). */
export async function addSourceAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const form = req.body as Record<string, unknown>;
  const services = [form.service_types ?? []].flat().map(String);
  const answer = await c.tenant.api.addTenantTrustSource({
    body: {
      type: TrustSourceType.options.find((t) => t === form.type) ?? 'trusted_list',
      url: String(form.url ?? '').trim(),
      signer_certificates: [String(form.signer_certificate ?? '').trim()],
      service_types: TrustServiceType.options.filter((t) => services.includes(t)),
    },
  });
  if (answer.status === 400)
    throw new ConsolePageError(
      400,
      'Not accepted',
      `The trust source was refused: ${answer.body.detail ?? ''}`,
    );
  return answered(
    req,
    res,
    answer.status,
    `${consoleBase(c.tenantId)}/trust`,
    'source-added',
    SOURCE_TEXTS,
    [201],
  );
}

/** POST …/trust/sources/:id/refresh or …/remove. */
export async function sourceAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const sourceId = String(req.params.sourceId);
  if (!UUID.test(sourceId)) throw new ConsolePageError(404, 'Not found', SOURCE_TEXTS.notFound);
  const back = `${consoleBase(c.tenantId)}/trust`;
  if (req.params.action === 'refresh') {
    const answer = await c.tenant.api.refreshTenantTrustSource({ params: { sourceId } });
    return answered(req, res, answer.status, back, 'source-refreshed', SOURCE_TEXTS);
  }
  const answer = await c.tenant.api.deleteTenantTrustSource({ params: { sourceId } });
  return answered(req, res, answer.status, back, 'source-removed', SOURCE_TEXTS, [204]);
}
