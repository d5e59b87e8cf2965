import type { EntityManager } from '@mikro-orm/postgresql';
import { guardedFetch } from '../../server/outbound/guarded-fetch.js';
import { outboundPolicy } from '../../server/outbound/outbound-policy.js';
import { openWebhookSecret } from '../../server/webhooks/webhook-secret-store.js';
import { webhookHeaders } from '../../server/webhooks/webhook-signature.js';
import type { Processor } from '../job-context.js';

interface DueDelivery {
  id: string;
  payload: unknown;
  delivered_at: Date | string | null;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | string | null;
}

/** A receiver's answer is only read for its status; more than this is not worth waiting for. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends one delivery, signed per Standard Webhooks with a timestamp of this try, through the guarded
 * fetch (private addresses refused, no redirects, OUTBOUND_TIMEOUT_MS). Every try is recorded; any
 * answer but 2xx throws, so the job machinery retries with backoff and dead-letters after the last.
 * A delivery already made, or whose endpoint was removed, is not sent again.
 */
export const deliverWebhookProcessor: Processor = async ({ deliveryId }, { em, config }) => {
  const [d] = await em.execute<DueDelivery[]>(
    `select d.id, d.payload, d.delivered_at, e.id as endpoint_id, e.url, e.secret_sealed,
            e.previous_secret_sealed, e.previous_secret_expires_at
     from webhook_delivery d join webhook_endpoint e on e.id = d.endpoint_id where d.id = ?`,
    [deliveryId ?? ''],
  );
  if (!d || d.delivered_at) return;
  const kek = config.KEY_ENCRYPTION_KEY;
  const secrets = [openWebhookSecret(kek, d.endpoint_id, d.secret_sealed)];
  const previousLive = d.previous_secret_expires_at && new Date(d.previous_secret_expires_at) > new Date();
  if (d.previous_secret_sealed && previousLive)
    secrets.push(openWebhookSecret(kek, d.endpoint_id, d.previous_secret_sealed));
  const body = JSON.stringify(d.payload);
  const headers = webhookHeaders(secrets, d.id, Math.floor(Date.now() / 1000), body);
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const answer = await guardedFetch(outboundPolicy(config), d.url, {
      method: 'POST',
      headers: { ...headers, 'user-agent': 'credservice-webhooks/1' },
      body,
      maxBytes: MAX_ANSWER_BYTES,
    });
    status = answer.status;
    if (!answer.ok) error = `the endpoint answered ${answer.status}`;
  } catch (e) {
    error = (e as Error).message;
  }
  await recordAttempt(em, d.id, status, error, Date.now() - started);
  if (error) throw new Error(`webhook delivery ${d.id}: ${error}`);
};

async function recordAttempt(
  em: EntityManager,
  id: string,
  status: number | null,
  error: string | null,
  durationMs: number,
): Promise<void> {
  await em.execute(
    `with attempt as (
       insert into webhook_attempt (delivery_id, at, status, error, duration_ms) values (?, now(), ?, ?, ?)
     )
     update webhook_delivery set attempts = attempts + 1, last_status = ?, last_error = ?,
       last_attempt_at = now(), delivered_at = case when ? then now() end
     where id = ?`,
    [
      id,
      status,
      error?.slice(0, 500) ?? null,
      durationMs,
      status,
      error?.slice(0, 500) ?? null,
      error === null,
      id,
    ],
  );
}
