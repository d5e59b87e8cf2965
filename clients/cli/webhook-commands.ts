import { createClient, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../integrator/src/index.js';

export const WEBHOOK_USAGE = `  webhook create <tenant id> --url <https url> [--events ${WEBHOOK_EVENT_TYPES[0]},…] [--description X]
  webhook list <tenant id>
  webhook delete <tenant id> <webhook id>
  webhook rotate-secret <tenant id> <webhook id> [--overlap <seconds the old secret keeps signing>]
  webhook deliveries <tenant id> <webhook id> [--limit N]
  webhook replay <tenant id> <webhook id> <delivery id>`;

/** The flags the webhook commands read (declared with the others in main.ts). */
export interface WebhookFlags {
  url?: string | undefined;
  events?: string | undefined;
  description?: string | undefined;
  overlap?: string | undefined;
  limit?: string | undefined;
}

/**
 * `webhook …`: a tenant's webhook endpoints from the terminal. `create` and `rotate-secret` print the
 * secret, which the API shows only then: hand it to the receiver straight away.
 */
export function webhookCommand(
  o: { baseUrl: string; token: string },
  command: string | undefined,
  [tenant, webhook, delivery]: (string | undefined)[],
  flags: WebhookFlags,
  need: (v: string | undefined, what: string) => string,
): Promise<{ status: number; body: unknown }> | undefined {
  const hooks = createClient(o).webhooks;
  const id = () => need(tenant, 'tenant id');
  const endpoint = () => ({ id: id(), webhookId: need(webhook, 'webhook id') });
  const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  switch (command) {
    case 'create':
      return hooks.createWebhook({
        params: { id: id() },
        body: {
          url: need(flags.url, '--url'),
          events: flags.events?.split(',').map((e) => e.trim() as WebhookEventType),
          description: flags.description,
        },
      });
    case 'list':
      return hooks.listWebhooks({ params: { id: id() } });
    case 'delete':
      return hooks.deleteWebhook({ params: endpoint() });
    case 'rotate-secret':
      return hooks.rotateWebhookSecret({
        params: endpoint(),
        body: { previous_secret_expires_in: number(flags.overlap) },
      });
    case 'deliveries':
      return hooks.listWebhookDeliveries({ params: endpoint(), query: { limit: number(flags.limit) } });
    case 'replay':
      return hooks.replayWebhookDelivery({
        params: { ...endpoint(), deliveryId: need(delivery, 'delivery id') },
      });
    default:
      return undefined;
  }
}
