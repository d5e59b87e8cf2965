import type { Request, Response } from 'express';
import { PresentationSessionStatus } from '../../../contract/verification/authorization-request.js';
import { ApprovalListStatus } from '../../../contract/verification/presentation-session-list.js';
import { escapeHtml } from '../../http/escape-html.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage } from '../console-layout.js';
import { requireRead } from './api-refusals.js';
import { select, statusBadge, time } from './view-helpers.js';

type Console = ReturnType<typeof consoleOf>;
const PAGE = 50;
const beforeOf = (value: unknown) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined;

const sessionLink = (c: Console, id: string) =>
  `<a class="mono" href="${escapeHtml(`${consoleBase(c.tenantId)}/presentations/${encodeURIComponent(id)}`)}">${escapeHtml(id)}</a>`;

async function sessionRows(c: Console, status: string | undefined, before: string | undefined) {
  const q = { status: PresentationSessionStatus.options.find((s) => s === status), before, limit: PAGE };
  const answer = await c.tenant.api.listAuthorizationRequests({ query: q });
  requireRead(answer, 'The presentation sessions');
  const rows = answer.body.items.map(
    (
      s,
    ) => `<tr id="session-${escapeHtml(s.session_id)}"><td>${sessionLink(c, s.session_id)}</td><td>${time(s.created_at)}</td>
<td>${statusBadge(s.status)}</td><td class="reason">${escapeHtml(s.reason ?? '')}</td><td>${escapeHtml(s.credential_types.join(', '))}</td>
<td>${escapeHtml(s.response_mode)}</td><td>${s.approval_id ? 'approval' : ''}</td></tr>`,
  );
  const head = ['Session', 'Created', 'Status', 'Reason', 'Asked for', 'Response mode', 'Kind'];
  return { head, rows, more: answer.body.more, last: answer.body.items.at(-1)?.created_at };
}

async function approvalRows(c: Console, status: string | undefined, before: string | undefined) {
  const q = { status: ApprovalListStatus.options.find((s) => s === status), before, limit: PAGE };
  const answer = await c.tenant.api.listApprovals({ query: q });
  requireRead(answer, 'The approvals');
  const rows = answer.body.items.map(
    (
      a,
    ) => `<tr id="approval-${escapeHtml(a.approval_id)}"><td>${sessionLink(c, a.session_id)}</td><td>${time(a.created_at)}</td>
<td>${statusBadge(a.status)}</td><td class="reason">${escapeHtml(a.reason ?? '')}</td><td>${escapeHtml(a.transaction.subject)}</td>
<td>${escapeHtml(`${a.power.function} / ${a.power.action}`)}</td><td>${a.issuance_id ? `issuance ${escapeHtml(a.issuance_id)}` : ''}</td></tr>`,
  );
  const head = ['Session', 'Created', 'Status', 'Reason', 'Transaction', 'Power needed', 'Decides'];
  return { head, rows, more: answer.body.more, last: answer.body.items.at(-1)?.created_at };
}

/**
 * GET …/presentations: the tenant's presentation sessions (or only its approvals), newest first,
 * with their outcome and failure reason; never what was presented.
 */
export async function presentationsPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const approvals = req.query.kind === 'approvals';
  const status = typeof req.query.status === 'string' ? req.query.status : undefined;
  const before = beforeOf(req.query.before);
  const list = approvals ? await approvalRows(c, status, before) : await sessionRows(c, status, before);
  const statuses = approvals ? ApprovalListStatus.options : PresentationSessionStatus.options;
  const form = `<form class="filters" method="get" role="search" aria-label="Filter presentation sessions">
${select('kind', 'Show', ['sessions', 'approvals'], approvals ? 'approvals' : 'sessions')}
${select(
  'status',
  'Status',
  statuses,
  statuses.find((s) => s === status),
)}<button type="submit">Filter</button></form>`;
  const keep = new URLSearchParams({ kind: approvals ? 'approvals' : 'sessions', status: status ?? '' });
  const older =
    list.more && list.last
      ? `<p class="pager"><a href="?${escapeHtml(new URLSearchParams({ ...Object.fromEntries(keep), before: list.last }).toString())}">Older</a></p>`
      : '';
  const head = list.head.map((h) => `<th scope="col">${h}</th>`).join('');
  const empty = `<tr><td colspan="${list.head.length}">None match.</td></tr>`;
  const body = `<p>What wallets were asked to present and what came of it. What a wallet disclosed is not shown here.</p>
${form}<table><thead><tr>${head}</tr></thead><tbody>${list.rows.join('') || empty}</tbody></table>${older}`;
  res.type('html').send(consolePage({ ...c, path: req.path }, 'Presentations and approvals', body));
}
