import type { Request, Response } from 'express';
import { ISSUANCE_STATUSES } from '../../../contract/issuance/issuance.js';
import { escapeHtml } from '../../http/escape-html.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage } from '../console-layout.js';
import { requireRead } from './api-refusals.js';
import { dayStart, field, queryText, select, statusBadge, time } from './view-helpers.js';

const STATUSES = [...ISSUANCE_STATUSES, 'expired'] as const;

/** GET …/issuances: the tenant's issuances, searched by e-mail, status, configuration and date. */
export async function issuancesPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const q = req.query;
  const status = STATUSES.find((s) => s === q.status);
  const offset = Math.min(Math.max(Number.parseInt(String(q.offset ?? '0'), 10) || 0, 0), 100_000);
  const filters = {
    email: queryText(q.email),
    status,
    credential_configuration_id: queryText(q.configuration, 200),
    created_after: dayStart(q.from),
    created_before: dayStart(q.to),
  };
  const answer = await c.tenant.api.listIssuances({
    query: { ...filters, limit: 50, offset } as never,
  });
  requireRead(answer, 'The issuances');
  const base = consoleBase(c.tenantId);
  const rows = answer.body.items
    .map((i) => {
      const credentials = i.credentials.map((cr) => statusBadge(cr.status)).join(' ') || '—';
      return `<tr><td><a href="${escapeHtml(`${base}/issuances/${encodeURIComponent(i.id)}`)}" class="mono">${escapeHtml(i.id)}</a></td>
<td>${escapeHtml(i.email ?? '—')}</td><td>${escapeHtml(i.credential_configuration_id)}</td><td>${statusBadge(i.status)}</td>
<td>${credentials}</td><td>${time(i.created_at)}</td></tr>`;
    })
    .join('');
  const form = `<form class="filters" method="get" role="search" aria-label="Search issuances">
${field('email', 'E-mail', filters.email, 'email')}
${select('status', 'Status', STATUSES, status)}
${field('configuration', 'Configuration', filters.credential_configuration_id)}
${field('from', 'Created from', typeof q.from === 'string' ? q.from : undefined, 'date')}
${field('to', 'Created before', typeof q.to === 'string' ? q.to : undefined, 'date')}
<button type="submit">Search</button></form>`;
  const keep = new URLSearchParams(
    Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'offset'),
  );
  const pager = `<p class="pager">${offset > 0 ? `<a href="?${escapeHtml(new URLSearchParams({ ...Object.fromEntries(keep), offset: String(Math.max(offset - 50, 0)) }).toString())}">Newer</a>` : ''}
${answer.body.more ? `<a href="?${escapeHtml(new URLSearchParams({ ...Object.fromEntries(keep), offset: String(offset + 50) }).toString())}">Older</a>` : ''}</p>`;
  const table = `<table><thead><tr><th scope="col">Issuance</th><th scope="col">E-mail</th><th scope="col">Configuration</th><th scope="col">Status</th><th scope="col">Credentials</th><th scope="col">Created</th></tr></thead><tbody>${rows || '<tr><td colspan="6">No issuances match.</td></tr>'}</tbody></table>`;
  const page = { ...c, session: c.session, path: req.originalUrl.split('?')[0] ?? '' };
  res.type('html').send(consolePage(page, 'Issuances and credentials', form + table + pager));
}
