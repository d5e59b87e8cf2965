import { initServer } from '@ts-rest/express';
import { webhookContract } from '../../contract/admin/webhook-contract.js';
import type { Config } from '../config.js';
import { adminActor } from '../http/admin-guard.js';
import { getTenant } from '../tenants/tenant-service.js';
import { listDeliveries, replayDelivery } from './webhook-deliveries.js';
import { createEndpoint, deleteEndpoint, listEndpoints, rotateSecret } from './webhook-endpoints.js';

const s = initServer();

/** How long a rotated-out secret keeps signing when the caller does not say. */
export const DEFAULT_OVERLAP_SECONDS = 86_400;

/** The operator's webhook API: endpoints per tenant, their secrets and their deliveries. */
export function adminWebhookRoutes(config: Config) {
  const kek = config.KEY_ENCRYPTION_KEY;
  return s.router(webhookContract, {
    createWebhook: async ({ params, body, req }) => {
      await getTenant(req.em, params.id);
      const created = await createEndpoint(
        req.em,
        {
          tenantId: params.id,
          actor: adminActor(req),
          kek,
          insecureHttpAllowed: config.insecureHttpAllowed,
        },
        body,
      );
      return { status: 201, body: created };
    },
    listWebhooks: async ({ params, req }) => {
      await getTenant(req.em, params.id);
      return { status: 200, body: { items: await listEndpoints(req.em, params.id) } };
    },
    deleteWebhook: async ({ params, req }) => {
      await deleteEndpoint(req.em, params.id, params.webhookId, adminActor(req));
      return { status: 204, body: undefined };
    },
    rotateWebhookSecret: async ({ params, body, req }) => {
      const overlap = body.previous_secret_expires_in ?? DEFAULT_OVERLAP_SECONDS;
      const o = { tenantId: params.id, actor: adminActor(req), kek };
      return { status: 200, body: await rotateSecret(req.em, o, params.webhookId, overlap) };
    },
    listWebhookDeliveries: async ({ params, query, req }) => {
      const items = await listDeliveries(req.em, params.id, params.webhookId, query.limit);
      return { status: 200, body: { items } };
    },
    replayWebhookDelivery: async ({ params, req }) => {
      const o = { tenantId: params.id, actor: adminActor(req) };
      await replayDelivery(req.em, o, params.webhookId, params.deliveryId);
      return { status: 202, body: { id: params.deliveryId } };
    },
  });
}
