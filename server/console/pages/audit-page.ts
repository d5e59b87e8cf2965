import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consolePage } from '../console-layout.js';
import { dayStart, field, queryText, time } from './view-helpers.js';

/** Who an actor is: a console session's token is shown as the person its sign-in event names. */
function people(events: { action: string; details: Record<string, unknown> }[]) {
  const byToken = new Map<string, string>();
  for (const e of events) {
    if (e.action !== 'console.signed_in') continue;
    const person = e.details.person as { name?: string; email?: string | null } | undefined;
    const label = `${person?.name ?? '?'}${person?.email ? ` <${person.email}>` : ''} (console)`;
    for (const key of ['integrator_token', 'scim_token']) {
      const id = e.details[key];
      if (typeof id === 'string') byToken.set(id, label);
    }
  }
  return (actor: string) => byToken.get(actor.replace(/^(integrator|scim):/, '')) ?? actor;
}

/** GET …/audit: the tenant's audit log, newest first, filtered; the chain's verification; the export. */
export async function auditPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const action = queryText(req.query.action, 100);
  const subject = queryText(req.query.subject, 200);
  const since = dayStart(req.query.from);
  const before = Number.parseInt(String(req.query.before ?? ''), 10);
  const api = c.tenant.api;
  const [page, signIns, chain, exported] = await Promise.all([
    api.listTenantAuditEvents({
      query: {
        action,
        subject,
        since,
        order: 'desc',
        limit: 100,
        ...(before > 0 ? { before } : {}),
      } as never,
    }),
    api.listTenantAuditEvents({
      query: { action: 'console.signed_in', order: 'desc', limit: 1000 } as never,
    }),
    api.verifyTenantAuditChain(),
    api.getTenantAuditExport(),
  ]);
  if (page.status !== 200)
    throw new ConsolePageError(502, 'Not available', 'The audit log could not be read.');
  const who = people(signIns.status === 200 ? signIns.body.items : []);
  const rows = page.body.items
    .map(
      (
        e,
      ) => `<tr><td>${e.seq ?? 'sealing…'}</td><td>${time(e.created_at)}</td><td>${escapeHtml(e.action)}</td>
<td>${escapeHtml(who(e.actor))}</td><td class="mono">${escapeHtml(e.subject ?? '')}</td><td class="mono">${escapeHtml(JSON.stringify(e.details)).slice(0, 600)}</td></tr>`,
    )
    .join('');
  const v = chain.status === 200 ? chain.body : undefined;
  const verification = v
    ? `<p class="notice" role="status" id="chain">Chain: ${v.valid ? '<strong>verified</strong>' : `<strong>BROKEN</strong> at ${v.first_invalid_seq} (${escapeHtml(v.reason ?? '')})`}, ${v.checked} sealed events checked, ${v.unsealed} waiting to be sealed; signed head ${v.checkpoint ? `#${v.checkpoint.seq} ${v.checkpoint.valid ? 'valid' : 'INVALID'}` : 'none yet'}.
Export: ${exported.status === 200 ? `up to #${exported.body.last_seq}, ${exported.body.exported_at ? time(exported.body.exported_at) : 'never'}` : 'unknown'}.</p>`
    : '';
  const form = `<form class="filters" method="get" role="search" aria-label="Filter the audit log">
${field('action', 'Action', action)}${field('subject', 'Subject', subject)}${field('from', 'From', typeof req.query.from === 'string' ? req.query.from : undefined, 'date')}
<button type="submit">Filter</button></form>`;
  const next = page.body.next_cursor
    ? `<p class="pager"><a href="?${escapeHtml(new URLSearchParams({ ...(action ? { action } : {}), ...(subject ? { subject } : {}), before: String(page.body.next_cursor) }).toString())}">Older events</a></p>`
    : '';
  const table = `<table><thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">Action</th><th scope="col">Who</th><th scope="col">Subject</th><th scope="col">Details</th></tr></thead><tbody>${rows || '<tr><td colspan="6">No events match.</td></tr>'}</tbody></table>`;
  res
    .type('html')
    .send(consolePage({ ...c, path: req.path }, 'Audit log', verification + form + table + next));
}
