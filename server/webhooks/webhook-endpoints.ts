import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../contract/admin/webhook.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound, validationError } from '../domain-errors.js';
import { sealWebhookSecret } from './webhook-secret-store.js';
import { newWebhookSecret } from './webhook-signature.js';

export interface EndpointRow {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  created_at: Date;
  secret_rotated_at: Date | null;
  previous_secret_expires_at: Date | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const endpointView = (r: EndpointRow) => ({
  id: r.id,
  url: r.url,
  events: r.events,
  description: r.description,
  created_at: new Date(r.created_at).toISOString(),
  secret_rotated_at: iso(r.secret_rotated_at),
  previous_secret_expires_at: iso(r.previous_secret_expires_at),
});

const COLUMNS = 'id, url, events, description, created_at, secret_rotated_at, previous_secret_expires_at';

/** Where the service may send a tenant's events: https, or plain http where the deployment allows it. */
function checkUrl(raw: string, insecureHttpAllowed: boolean): void {
  const url = new URL(raw);
  const fine = url.protocol === 'https:' || (url.protocol === 'http:' && insecureHttpAllowed);
  if (!fine) throw validationError([{ field: 'url', message: 'must be an https URL' }]);
  if (url.username || url.password || url.hash)
    throw validationError([{ field: 'url', message: 'must carry no credentials and no fragment' }]);
}

export interface NewEndpoint {
  url: string;
  events?: WebhookEventType[] | undefined;
  description?: string | undefined;
}

export async function createEndpoint(
  em: EntityManager,
  o: { tenantId: string; actor: string; kek: string | undefined; insecureHttpAllowed: boolean },
  input: NewEndpoint,
) {
  checkUrl(input.url, o.insecureHttpAllowed);
  const id = randomUUID();
  const secret = newWebhookSecret();
  const events = [...new Set(input.events ?? WEBHOOK_EVENT_TYPES)];
  const row = await em.transactional(async (tx) => {
    const [inserted] = await tx.execute<EndpointRow[]>(
      `insert into webhook_endpoint (id, tenant_id, url, events, description, secret_sealed, created_at)
       values (?, ?, ?, array(select jsonb_array_elements_text(cast(? as jsonb))), ?, ?, now())
       returning ${COLUMNS}`,
      [
        id,
        o.tenantId,
        input.url,
        JSON.stringify(events),
        input.description ?? null,
        sealWebhookSecret(o.kek, id, secret),
      ],
    );
    await appendAuditEvent(tx, {
      tenantId: o.tenantId,
      actor: o.actor,
      action: 'webhook.created',
      subject: id,
      details: { url: input.url, events },
    });
    return inserted as EndpointRow;
  });
  return { ...endpointView(row), secret };
}

export async function listEndpoints(em: EntityManager, tenantId: string) {
  const rows = await em.execute<EndpointRow[]>(
    `select ${COLUMNS} from webhook_endpoint where tenant_id = ? order by created_at, id`,
    [tenantId],
  );
  return rows.map(endpointView);
}

/** Removes an endpoint with its deliveries; the outbox rows left behind find nothing to send. */
export async function deleteEndpoint(em: EntityManager, tenantId: string, id: string, actor: string) {
  await em.transactional(async (tx) => {
    const gone = await tx.execute<{ id: string }[]>(
      'delete from webhook_endpoint where tenant_id = ? and id = ? returning id',
      [tenantId, id],
    );
    if (!gone.length) throw notFound(`webhook ${id}`);
    await tx.execute('delete from webhook_delivery where endpoint_id = ?', [id]);
    await appendAuditEvent(tx, { tenantId, actor, action: 'webhook.deleted', subject: id, details: {} });
  });
}

/**
 * A new secret for an endpoint. The current one becomes the previous one and keeps signing next to
 * the new one for `overlapSeconds`, so the receiver can switch without refusing a delivery.
 */
export async function rotateSecret(
  em: EntityManager,
  o: { tenantId: string; actor: string; kek: string | undefined },
  id: string,
  overlapSeconds: number,
) {
  const secret = newWebhookSecret();
  const row = await em.transactional(async (tx) => {
    const [rotated] = await tx.execute<EndpointRow[]>(
      `update webhook_endpoint set previous_secret_sealed = secret_sealed,
         previous_secret_expires_at = now() + make_interval(secs => ?),
         secret_sealed = ?, secret_rotated_at = now()
       where tenant_id = ? and id = ? returning ${COLUMNS}`,
      [overlapSeconds, sealWebhookSecret(o.kek, id, secret), o.tenantId, id],
    );
    if (!rotated) throw notFound(`webhook ${id}`);
    await appendAuditEvent(tx, {
      tenantId: o.tenantId,
      actor: o.actor,
      action: 'webhook.secret_rotated',
      subject: id,
      details: { previous_secret_expires_in: overlapSeconds },
    });
    return rotated;
  });
  return { id, secret, previous_secret_expires_at: iso(row.previous_secret_expires_at) };
}
