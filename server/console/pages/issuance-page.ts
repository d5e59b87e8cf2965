import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { qrCodeSvg } from '../../http/qr-code.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage, csrfField } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { requireRead } from './api-refusals.js';
import { doneNotice, statusBadge, time } from './view-helpers.js';

/** The actions a credential in this status allows (the API refuses any other with 409). */
const ACTIONS: Record<string, { action: string; label: string; danger?: boolean }[]> = {
  valid: [
    { action: 'suspend', label: 'Suspend' },
    { action: 'revoke', label: 'Revoke', danger: true },
  ],
  suspended: [
    { action: 'unsuspend', label: 'Unsuspend' },
    { action: 'revoke', label: 'Revoke', danger: true },
  ],
  revoked: [],
};

/** A form per action, with a labelled reason; auditors see none (their token could not act anyway). */
function actionForms(
  session: ConsoleSession,
  path: string,
  status: string,
  credentialId: string,
  issuanceId: string,
) {
  if (session.role === 'auditor') return '';
  return (ACTIONS[status] ?? [])
    .map(({ action, label, danger }) => {
      const id = `reason-${action}-${credentialId}`;
      return `<form class="action" method="post" action="${escapeHtml(`${path}/credentials/${credentialId}/${action}`)}">${csrfField(session)}
<input type="hidden" name="issuance" value="${escapeHtml(issuanceId)}">
<label for="${id}">Reason to ${action}</label><input id="${id}" name="reason" maxlength="500" required>
<button type="submit"${danger ? ' class="danger"' : ''}>${label}</button></form>`;
    })
    .join('');
}

/** GET …/issuances/:id: one issuance, its offer (link, page, QR) while open, its credentials. */
export async function issuancePage(req: Request, res: Response) {
  const c = consoleOf(res);
  const answer = await c.tenant.api.getIssuance({ params: { id: String(req.params.id).slice(0, 200) } });
  if (answer.status === 404) throw new ConsolePageError(404, 'Not found', 'There is no such issuance.');
  requireRead(answer, 'The issuance');
  const i = answer.body;
  const base = consoleBase(c.tenantId);
  const offer = i.credential_offer_uri
    ? `<h2>Offer</h2><p><img class="qr" alt="QR code of the offer" src="${escapeHtml(await qrCodeSvg(i.credential_offer_uri))}"></p>
<p><a href="${escapeHtml(i.offer_page_url ?? '')}">Offer page</a> · <span class="mono">${escapeHtml(i.credential_offer_uri)}</span></p>`
    : '';
  const rows = i.credentials
    .map(
      (
        cr,
      ) => `<tr id="credential-${escapeHtml(cr.id)}"><td class="mono">${escapeHtml(cr.id)}</td><td>${statusBadge(cr.status)}</td>
<td><a href="${escapeHtml(cr.status_list.uri)}">list</a> #${cr.status_list.idx}</td><td>${time(cr.issued_at)}</td><td>${time(cr.expires_at)}</td>
<td>${actionForms(c.session, base, cr.status, cr.id, i.id)}<a href="${escapeHtml(`${base}/audit?subject=${encodeURIComponent(cr.id)}`)}">History</a></td></tr>`,
    )
    .join('');
  const withdraw =
    c.session.role !== 'auditor' && !['withdrawn', 'declined'].includes(i.status)
      ? `<form class="action" method="post" action="${escapeHtml(`${base}/issuances/${encodeURIComponent(i.id)}/withdraw`)}">${csrfField(c.session)}
<label for="reason-withdraw">Reason to withdraw</label><input id="reason-withdraw" name="reason" maxlength="500" required>
<button type="submit" class="danger">Withdraw the issuance</button></form>`
      : '';
  // The API says whether the offer can be mailed again (409 otherwise): offered only while it is open.
  const resend =
    c.session.role !== 'auditor' && ['offered', 'locked'].includes(i.status) && i.email
      ? `<form class="action" method="post" action="${escapeHtml(`${base}/issuances/${encodeURIComponent(i.id)}/resend`)}">${csrfField(c.session)}
<button type="submit">Mail the offer again (a new activation code replaces the old one)</button></form>`
      : '';
  const body = `${doneNotice(req.query.done)}
<dl><dt>Status</dt><dd>${statusBadge(i.status)}</dd><dt>E-mail</dt><dd>${escapeHtml(i.email ?? '—')}</dd>
<dt>Configuration</dt><dd>${escapeHtml(i.credential_configuration_id)}</dd><dt>Delivery</dt><dd>${escapeHtml(i.delivery.join(', '))}</dd>
<dt>Created</dt><dd>${time(i.created_at)}</dd><dt>Expires</dt><dd>${time(i.expires_at)}</dd></dl>
${resend}${withdraw}${offer}
<h2>Credentials</h2><table><thead><tr><th scope="col">Credential</th><th scope="col">Status</th><th scope="col">Status list entry</th><th scope="col">Issued</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No credential issued yet.</td></tr>'}</tbody></table>`;
  res.type('html').send(consolePage({ ...c, path: `${base}/issuances` }, `Issuance ${i.id}`, body));
}
