import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage } from '../console-layout.js';
import { statusBadge } from './view-helpers.js';

/** Session ids are base64url text; anything else in the URL is no such session. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,200}$/;

type Trust = { method: string; anchor_subject?: string; entity?: string; service_type?: string };
const trustText = (t: Trust) =>
  [t.method, t.anchor_subject, t.entity, t.service_type].filter(Boolean).join(' · ');

const row = (label: string, value: string) => `<dt>${escapeHtml(label)}</dt><dd>${value}</dd>`;

/** The approval a session is, if it is one: the transaction, the power and whether a receipt was signed. */
async function approvalPart(c: ReturnType<typeof consoleOf>, approvalId: string | null | undefined) {
  if (!approvalId) return '';
  const answer = await c.tenant.api.getApproval({ params: { id: approvalId } });
  if (answer.status !== 200) return '';
  const a = answer.body;
  const power = [a.power.function, a.power.action, a.power.domain].filter(Boolean).join(' / ');
  return `<h2>Approval</h2><dl>${row('Approval', `<span class="mono">${escapeHtml(a.approval_id)}</span>`)}
${row('Outcome', statusBadge(a.status))}${row('Transaction', escapeHtml(`${a.transaction.subject} (${a.transaction.type})`))}
${row('Power needed', escapeHtml(power))}${row('Signed receipt', a.receipt ? 'yes (through the API)' : 'no')}</dl>`;
}

/**
 * GET …/presentations/:id: one session's outcome: status, failure reason in words, the profile, and
 * how each presented credential's issuer was trusted. The disclosed claims are named, not shown:
 * their values are personal data meant for the integrator's application, not for every
 * administrator and auditor of the console (the API's detail endpoint still returns them).
 */
export async function presentationPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const id = String(req.params.id);
  const answer = SESSION_ID.test(id)
    ? await c.tenant.api.getAuthorizationRequest({ params: { id } })
    : undefined;
  if (answer?.status !== 200)
    throw new ConsolePageError(404, 'Not found', 'There is no such presentation session.');
  const s = answer.body;
  const credentials = (s.credentials ?? [])
    .map(
      (cr) =>
        `<tr><td>${escapeHtml(cr.id)}</td><td>${escapeHtml(cr.format)}</td><td>${escapeHtml(cr.credential_type ?? '—')}</td><td>${escapeHtml(trustText(cr.trust))}</td></tr>`,
    )
    .join('');
  const disclosed = s.claims ? Object.keys(s.claims).sort().join(', ') : '';
  const body = `<dl>${row('Session', `<span class="mono">${escapeHtml(s.session_id)}</span>`)}${row('Status', statusBadge(s.status))}
${row('Credential type', escapeHtml(s.credential_type ?? '—'))}${s.profile ? row('Profile', escapeHtml(s.profile)) : ''}
${s.reason ? row('Reason', `<span class="reason">${escapeHtml(s.reason)}</span>`) : ''}${s.reason_description ? row('What failed', escapeHtml(s.reason_description)) : ''}
${disclosed ? row('Claims disclosed (names only)', escapeHtml(disclosed)) : ''}</dl>
${credentials ? `<h2>Presented credentials</h2><table><thead><tr><th scope="col">Query</th><th scope="col">Format</th><th scope="col">Type</th><th scope="col">Issuer trusted by</th></tr></thead><tbody>${credentials}</tbody></table>` : ''}
${await approvalPart(c, s.approval_id)}
<p><a href="${escapeHtml(`${consoleBase(c.tenantId)}/presentations`)}">Back to the presentations</a></p>`;
  const path = `${consoleBase(c.tenantId)}/presentations`;
  res.type('html').send(consolePage({ ...c, path }, 'Presentation session', body));
}
