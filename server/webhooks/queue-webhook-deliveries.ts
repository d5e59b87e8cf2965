import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuditFacts, webhookEventOf } from './webhook-events.js';

/**
 * Runs at the commit of a transaction that appended audit events (audit/audit-log.ts): for each event
 * that raises a webhook, one delivery per endpoint of the tenant subscribed to it, and one outbox row
 * per delivery, all in that transaction. A rolled-back change thus sends nothing, and a committed one
 * cannot lose its deliveries. One statement, and none at all when no event raises a webhook.
 */
export async function queueWebhookDeliveries(tx: EntityManager, audited: AuditFacts[]): Promise<void> {
  const events = audited.flatMap((a) => {
    const event = webhookEventOf(a);
    return event ? [{ tenant_id: a.tenant_id, type: event.type, payload: event, at: a.created_at }] : [];
  });
  if (!events.length) return;
  await tx.execute(
    `with event as (
       select * from rows from (jsonb_to_recordset(cast(? as jsonb)) as (
         tenant_id text, type text, payload jsonb, at timestamptz)) with ordinality as e(tenant_id, type, payload, at, n)
     ), delivery as (
       insert into webhook_delivery (id, tenant_id, endpoint_id, event_type, payload, outbox_id, created_at)
       select gen_random_uuid(), w.tenant_id, w.id, e.type, e.payload, gen_random_uuid(), e.at
       from event e join webhook_endpoint w on w.tenant_id = e.tenant_id and e.type = any (w.events)
       order by e.n
       returning id, outbox_id
     )
     insert into outbox_message (id, topic, payload, status, attempts, available_at, last_error, created_at)
     select outbox_id, 'webhook', jsonb_build_object('deliveryId', id::text), 'pending', 0, now(), null, now()
     from delivery`,
    [JSON.stringify(events)],
  );
}
