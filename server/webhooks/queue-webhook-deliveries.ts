import { type AuditFacts, webhookEventOf } from './webhook-events.js';

/** A webhook event raised by an audited change, as the delivery statement reads it. */
export interface RaisedEvent {
  tenant_id: string;
  type: string;
  payload: unknown;
  at: string;
}

/** The webhook events the audited changes raise; none for changes no webhook tells of. */
export function raisedWebhookEvents(audited: AuditFacts[]): RaisedEvent[] {
  return audited.flatMap((a) => {
    const event = webhookEventOf(a);
    return event ? [{ tenant_id: a.tenant_id, type: event.type, payload: event, at: a.created_at }] : [];
  });
}

/**
 * CTEs of the audit statement (audit/audit-log.ts) for changes that raise webhooks: for each
 * raised event (the jsonb parameter `param`), one delivery per endpoint of the tenant subscribed to
 * it, and one outbox row per delivery, in the transaction of the change. A rolled-back change thus
 * sends nothing, and a committed one cannot lose its deliveries.
 */
export const queueDeliveriesSql = (param: string) => `event as (
       select * from rows from (jsonb_to_recordset(cast(${param} as jsonb)) as (
         tenant_id text, type text, payload jsonb, at timestamptz)) with ordinality as e(tenant_id, type, payload, at, n)
     ), delivery as (
       insert into webhook_delivery (id, tenant_id, endpoint_id, event_type, payload, outbox_id, created_at)
       select gen_random_uuid(), w.tenant_id, w.id, e.type, e.payload, gen_random_uuid(), e.at
       from event e join webhook_endpoint w on w.tenant_id = e.tenant_id and e.type = any (w.events)
       order by e.n
       returning id, outbox_id
     ), delivery_outbox as (
       insert into outbox_message (id, topic, payload, status, attempts, available_at, last_error, created_at)
       select outbox_id, 'webhook', jsonb_build_object('deliveryId', id::text), 'pending', 0, now(), null, now()
       from delivery
     )`;
