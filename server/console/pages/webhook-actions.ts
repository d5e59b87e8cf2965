import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consoleBase, consolePage } from '../console-layout.js';
import { answered, requireAccepted } from './api-refusals.js';
import { shownOnce, UUID } from './view-helpers.js';
import { webhookOf } from './webhooks-page.js';

const WEBHOOK_TEXTS = { notFound: 'There is no such webhook or delivery.' };

/** POST …/webhooks/:id/deliveries/:deliveryId/replay: the delivery is queued again, as it was. */
export async function replayDeliveryAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const webhookId = String(req.params.id);
  const deliveryId = String(req.params.deliveryId);
  if (!UUID.test(webhookId) || !UUID.test(deliveryId))
    throw new ConsolePageError(404, 'Not found', WEBHOOK_TEXTS.notFound);
  const answer = await c.tenant.api.replayTenantWebhookDelivery({ params: { webhookId, deliveryId } });
  const back = `${consoleBase(c.tenantId)}/webhooks/${webhookId}`;
  return answered(req, res, answer.status, back, 'replay', WEBHOOK_TEXTS, [202]);
}

/**
 * POST …/webhooks/:id/rotate-secret: the answer is the new secret, shown on this page once (it is
 * not kept anywhere the console could show it again; the page is not cached).
 */
export async function rotateSecretAction(req: Request, res: Response) {
  const c = consoleOf(res);
  const webhook = await webhookOf(res, String(req.params.id));
  const hours = Number.parseInt(String((req.body as { overlap_hours?: unknown }).overlap_hours ?? '24'), 10);
  if (!Number.isInteger(hours) || hours < 0 || hours > 168)
    throw new ConsolePageError(400, 'Not accepted', 'The old secret may keep signing for 0 to 168 hours.');
  const answer = await c.tenant.api.rotateTenantWebhookSecret({
    params: { webhookId: webhook.id },
    body: { previous_secret_expires_in: hours * 3600 },
  });
  await requireAccepted(req, res, answer.status, [200], WEBHOOK_TEXTS);
  if (answer.status !== 200) return;
  const path = `${consoleBase(c.tenantId)}/webhooks/${webhook.id}`;
  const until = answer.body.previous_secret_expires_at;
  const body = `${shownOnce('The new signing secret', answer.body.secret)}
<p>${until ? `The old secret signs alongside until ${escapeHtml(until)}.` : 'The old secret no longer signs.'} Give the new one to the receiving system now.</p>
<p><a href="${escapeHtml(path)}">Back to the webhook</a></p>`;
  res
    .type('html')
    .send(consolePage({ ...c, path: `${consoleBase(c.tenantId)}/webhooks` }, 'Secret rotated', body));
}
