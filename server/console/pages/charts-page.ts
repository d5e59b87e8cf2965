import type { Request, Response } from 'express';
import type { IntegratorClient } from '../../../clients/integrator/src/index.js';
import { consoleOf } from '../console-guard.js';
import { consolePage } from '../console-layout.js';
import { barChart } from './bar-chart.js';

const DAYS = 14;
const MAX_PAGES = 5;

/** Every event of one action since `since`, through the tenant's audit API (bounded: 5,000). */
async function eventsOf(api: IntegratorClient, action: string, since: string) {
  const out: { created_at: string; details: Record<string, unknown> }[] = [];
  let after: number | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await api.listTenantAuditEvents({
      query: { action, since, limit: 1000, ...(after ? { after } : {}) } as never,
    });
    if (answer.status !== 200) break;
    out.push(...answer.body.items);
    if (!answer.body.next_cursor) break;
    after = answer.body.next_cursor;
  }
  return out;
}

const perDay = (events: { created_at: string }[], days: string[]) =>
  days.map((d) => events.filter((e) => e.created_at.startsWith(d)).length);

/** GET …/charts: the last two weeks from the audit log, drawn as inline SVG. */
export async function chartsPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const since = new Date(Date.now() - (DAYS - 1) * 86_400_000);
  since.setUTCHours(0, 0, 0, 0);
  const days = Array.from({ length: DAYS }, (_, i) =>
    new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10),
  );
  const from = since.toISOString();
  const api = c.tenant.api;
  const [issued, revoked, verified, failed, scimCreated, scimDeleted] = await Promise.all(
    [
      'credential.issued',
      'credential.revoked',
      'verification.verified',
      'verification.failed',
      'scim.user.created',
      'scim.user.deleted',
    ].map((a) => eventsOf(api, a, from)),
  );
  const short = days.map((d) => d.slice(5));
  const reasons = new Map<string, number>();
  for (const e of failed ?? []) {
    const r = String(e.details.reason ?? 'unknown');
    reasons.set(r, (reasons.get(r) ?? 0) + 1);
  }
  const body = `<div class="charts">
${barChart('Credentials issued and revoked per day', short, [
  { label: 'issued', className: 'bar-a', values: perDay(issued ?? [], days) },
  { label: 'revoked', className: 'bar-b', values: perDay(revoked ?? [], days) },
])}
${barChart('Presentations per day by outcome', short, [
  { label: 'verified', className: 'bar-a', values: perDay(verified ?? [], days) },
  { label: 'failed', className: 'bar-b', values: perDay(failed ?? [], days) },
])}
${barChart('Failed presentations by reason', [...reasons.keys()], [{ label: 'failed', className: 'bar-b', values: [...reasons.values()] }])}
${barChart('SCIM users created and deleted per day', short, [
  { label: 'created', className: 'bar-a', values: perDay(scimCreated ?? [], days) },
  { label: 'deleted', className: 'bar-b', values: perDay(scimDeleted ?? [], days) },
])}
</div>`;
  res.type('html').send(consolePage({ ...c, path: req.path }, 'Charts', body));
}
