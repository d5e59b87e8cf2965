import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookEventType } from '../../contract/admin/webhook.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { recordEffect } from '../outbox/outbox.js';

interface DeliveryRow {
  id: string;
  event_type: WebhookEventType;
  payload: Record<string, unknown>;
  created_at: Date;
  delivered_at: Date | null;
  job_status: string | null;
}

interface AttemptRow {
  delivery_id: string;
  at: Date;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * An endpoint's latest deliveries with each try. A delivery is failed once its job is dead-lettered
 * (outbox status `dead`): every try the job machinery allows has been refused.
 */
export async function listDeliveries(em: EntityManager, tenantId: string, endpointId: string, limit: number) {
  await requireEndpoint(em, tenantId, endpointId);
  const rows = await em.execute<DeliveryRow[]>(
    `select d.id, d.event_type, d.payload, d.created_at, d.delivered_at, o.status as job_status
     from webhook_delivery d left join outbox_message o on o.id = d.outbox_id
     where d.endpoint_id = ? order by d.created_at desc, d.id limit ?`,
    [endpointId, limit],
  );
  const attempts = rows.length
    ? await em.execute<AttemptRow[]>(
        `select delivery_id, at, status, error, duration_ms from webhook_attempt
         where delivery_id in (select value::uuid from jsonb_array_elements_text(cast(? as jsonb))) order by id`,
        [JSON.stringify(rows.map((r) => r.id))],
      )
    : [];
  return rows.map((r) => ({
    id: r.id,
    event_type: r.event_type,
    status: r.delivered_at
      ? ('delivered' as const)
      : r.job_status === 'dead'
        ? ('failed' as const)
        : ('pending' as const),
    payload: r.payload,
    created_at: iso(r.created_at),
    delivered_at: r.delivered_at ? iso(r.delivered_at) : null,
    attempts: attempts
      .filter((a) => a.delivery_id === r.id)
      .map((a) => ({ at: iso(a.at), status: a.status, error: a.error, duration_ms: a.duration_ms })),
  }));
}

/** Queues a delivery again, as it was (same webhook-id and body); a new try gets a new signature. */
export async function replayDelivery(
  em: EntityManager,
  o: { tenantId: string; actor: string },
  endpointId: string,
  deliveryId: string,
) {
  await em.transactional(async (tx) => {
    await requireEndpoint(tx, o.tenantId, endpointId);
    const outboxId = await recordEffect(tx, 'webhook', { deliveryId });
    const updated = await tx.execute<{ id: string }[]>(
      `update webhook_delivery set outbox_id = ?, delivered_at = null
       where id = ? and endpoint_id = ? returning id`,
      [outboxId, deliveryId, endpointId],
    );
    if (!updated.length) throw notFound(`delivery ${deliveryId}`);
    await appendAuditEvent(tx, {
      tenantId: o.tenantId,
      actor: o.actor,
      action: 'webhook.replayed',
      subject: deliveryId,
      details: { webhook: endpointId },
    });
  });
}

async function requireEndpoint(em: EntityManager, tenantId: string, endpointId: string) {
  const found = await em.execute('select 1 from webhook_endpoint where tenant_id = ? and id = ?', [
    tenantId,
    endpointId,
  ]);
  if (!found.length) throw notFound(`webhook ${endpointId}`);
}
