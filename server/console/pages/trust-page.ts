import type { Request, Response } from 'express';
import { TrustAnchorId } from '../../../contract/admin/trust-anchor.js';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage, csrfField } from '../console-layout.js';
import { answered, requireRead } from './api-refusals.js';
import { trustSourcesSection } from './trust-sources.js';
import { trustedIssuersSection } from './trusted-issuers.js';
import { doneNotice, time } from './view-helpers.js';

const ANCHOR_TEXTS = { notFound: 'There is no such trust anchor.' };

/**
 * GET …/trust: what the tenant's verifier trusts issuers by: X.509 roots, issuers by their keys, and
 * published lists with their status; each added and removed here, a list refreshed.
 */
export async function trustPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const answer = await c.tenant.api.listTenantTrustAnchors();
  requireRead(answer, 'The trust anchors');
  const path = `${consoleBase(c.tenantId)}/trust`;
  const admin = c.session.role !== 'auditor';
  const rows = answer.body.items
    .map((a) => {
      const remove = admin
        ? `<form class="action" method="post" action="${escapeHtml(`${path}/anchors/${a.sha256}/remove`)}">${csrfField(c.session)}<button type="submit" class="danger" aria-label="Remove ${escapeHtml(a.subject)}">Remove</button></form>`
        : '';
      return `<tr><td>${escapeHtml(a.subject)}</td><td class="mono">${escapeHtml(a.sha256)}</td><td class="mono">${escapeHtml(a.key_identifier)}</td>
<td>${time(a.not_before)}</td><td>${time(a.not_after)}</td><td>${remove}</td></tr>`;
    })
    .join('');
  const add = admin
    ? `<form class="action" method="post" action="${escapeHtml(`${path}/anchors`)}">${csrfField(c.session)}
<label for="certificate">CA certificate (PEM)</label><textarea id="certificate" name="certificate" rows="6" cols="64" maxlength="20000" required></textarea>
<button type="submit">Add the trust anchor</button></form>`
    : '';
  const body = `${doneNotice(req.query.done)}<h2>Trust anchors</h2>
<p>Credentials whose x5c chain leads to one of these CA certificates are trusted by the verifier.</p>${add}
<table><thead><tr><th scope="col">Subject</th><th scope="col">SHA-256</th><th scope="col">Key identifier</th><th scope="col">Valid from</th><th scope="col">Valid until</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No trust anchors.</td></tr>'}</tbody></table>
${await trustedIssuersSection(c)}${await trustSourcesSection(c)}`;
  res.type('html').send(consolePage({ ...c, path: req.path }, 'Trust', body));
}

/** POST …/trust/anchors: the PEM through the tenant's API (which says why a certificate is refused). */
export async function addAnchorAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const certificate = String((req.body as { certificate?: unknown }).certificate ?? '').trim();
  const answer = await c.tenant.api.addTenantTrustAnchor({ body: { certificate } });
  if (answer.status === 400)
    throw new ConsolePageError(
      400,
      'Not accepted',
      `The certificate was refused: ${answer.body.detail ?? ''}`,
    );
  const done = answer.status === 200 ? 'anchor-known' : 'anchor-added';
  return answered(
    req,
    res,
    answer.status,
    `${consoleBase(c.tenantId)}/trust`,
    done,
    ANCHOR_TEXTS,
    [200, 201],
  );
}

/** POST …/trust/anchors/:sha256/remove. */
export async function removeAnchorAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const sha256 = String(req.params.sha256);
  if (!TrustAnchorId.safeParse(sha256).success)
    throw new ConsolePageError(404, 'Not found', ANCHOR_TEXTS.notFound);
  const answer = await c.tenant.api.deleteTenantTrustAnchor({ params: { sha256 } });
  return answered(
    req,
    res,
    answer.status,
    `${consoleBase(c.tenantId)}/trust`,
    'anchor-removed',
    ANCHOR_TEXTS,
    [204],
  );
}
