import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage, csrfField } from '../console-layout.js';
import { requireRead } from './api-refusals.js';
import { doneNotice, statusBadge, time, UUID } from './view-helpers.js';

/**
 * GET …/webhooks: the tenant's webhook endpoints (never their secrets), each linking to its
 * deliveries. Registering or removing an endpoint is the operator's (admin API and CLI).
 */
export async function webhooksPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const answer = await c.tenant.api.listTenantWebhooks();
  requireRead(answer, 'The webhooks');
  const base = consoleBase(c.tenantId);
  const rows = answer.body.items
    .map(
      (w) => `<tr><td><a href="${escapeHtml(`${base}/webhooks/${w.id}`)}">${escapeHtml(w.url)}</a></td>
<td>${escapeHtml(w.description ?? '')}</td><td>${escapeHtml(w.events.join(', '))}</td><td>${time(w.created_at)}</td>
<td>${time(w.secret_rotated_at)}</td></tr>`,
    )
    .join('');
  const body = `<p>Endpoints are registered by the operator (<code>npm run cli -- webhook create</code>).</p>
<table><thead><tr><th scope="col">Address</th><th scope="col">Description</th><th scope="col">Events</th><th scope="col">Registered</th><th scope="col">Secret rotated</th></tr></thead>
<tbody>${rows || '<tr><td colspan="5">No webhooks registered.</td></tr>'}</tbody></table>`;
  res.type('html').send(consolePage({ ...c, path: req.path }, 'Webhooks', body));
}

/** The webhook a URL names, or the 404 page. */
export async function webhookOf(res: Response, webhookId: string) {
  const c = consoleOf(res);
  const list = UUID.test(webhookId) ? await c.tenant.api.listTenantWebhooks() : undefined;
  const webhook = list?.status === 200 ? list.body.items.find((w) => w.id === webhookId) : undefined;
  if (!webhook) throw new ConsolePageError(404, 'Not found', 'There is no such webhook.');
  return webhook;
}

/** GET …/webhooks/:id: one endpoint's latest deliveries with their tries; replay; rotate the secret. */
export async function webhookPage(req: Request, res: Response) {
  const c = consoleOf(res);
  const webhook = await webhookOf(res, String(req.params.id));
  const answer = await c.tenant.api.listTenantWebhookDeliveries({
    params: { webhookId: webhook.id },
    query: { limit: 50 },
  });
  requireRead(answer, 'The deliveries');
  const path = `${consoleBase(c.tenantId)}/webhooks/${webhook.id}`;
  const admin = c.session.role !== 'auditor';
  const rows = answer.body.items
    .map((d) => {
      const last = d.attempts.at(-1);
      const outcome = last ? `${last.status ?? 'no answer'}${last.error ? `: ${last.error}` : ''}` : '—';
      // Pending deliveries are still being tried: replaying one would only race its own retries.
      const replay =
        admin && d.status !== 'pending'
          ? `<form class="action" method="post" action="${escapeHtml(`${path}/deliveries/${d.id}/replay`)}">${csrfField(c.session)}<button type="submit">Replay</button></form>`
          : '';
      return `<tr id="delivery-${escapeHtml(d.id)}"><td class="mono">${escapeHtml(d.id)}</td><td>${escapeHtml(d.event_type)}</td>
<td>${statusBadge(d.status)}</td><td>${time(d.created_at)}</td><td>${d.attempts.length}</td><td>${escapeHtml(outcome)}</td><td>${replay}</td></tr>`;
    })
    .join('');
  const rotate = admin
    ? `<form class="action" method="post" action="${escapeHtml(`${path}/rotate-secret`)}">${csrfField(c.session)}
<label for="overlap">Old secret keeps signing for (hours)</label><input id="overlap" name="overlap_hours" type="number" min="0" max="168" value="24" required>
<button type="submit">Rotate the secret</button></form>`
    : '';
  const body = `${doneNotice(req.query.done)}
<dl><dt>Address</dt><dd>${escapeHtml(webhook.url)}</dd><dt>Events</dt><dd>${escapeHtml(webhook.events.join(', '))}</dd>
<dt>Secret rotated</dt><dd>${time(webhook.secret_rotated_at)}</dd><dt>Old secret signs until</dt><dd>${time(webhook.previous_secret_expires_at)}</dd></dl>
${rotate}<h2>Deliveries</h2>
<table><thead><tr><th scope="col">Delivery (webhook-id)</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Tries</th><th scope="col">Last answer</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No deliveries yet.</td></tr>'}</tbody></table>`;
  res
    .type('html')
    .send(consolePage({ ...c, path: `${consoleBase(c.tenantId)}/webhooks` }, `Webhook ${webhook.url}`, body));
}
