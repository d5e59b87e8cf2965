import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import type { Config } from '../config.js';
import { integratorActor } from '../http/integrator-guard.js';
import { principalOf } from '../http/request-context.js';
import { DEFAULT_OVERLAP_SECONDS } from './admin-webhook.routes.js';
import { listDeliveries, replayDelivery } from './webhook-deliveries.js';
import { listEndpoints, rotateSecret } from './webhook-endpoints.js';

const s = initServer();
const r = integratorContract;

/**
 * The tenant's webhooks through its integrator token: the admin API's answers, for the token's
 * tenant only (never one named in the request), each change audited under the token.
 */
export function tenantWebhookRoutes(config: Pick<Config, 'KEY_ENCRYPTION_KEY'>) {
  const tenantOf = (req: Parameters<typeof principalOf>[0]) => principalOf(req).tenantId;
  return {
    listTenantWebhooks: s.route(r.listTenantWebhooks, async ({ req }) => ({
      status: 200,
      body: { items: await listEndpoints(req.em, tenantOf(req)) },
    })),
    listTenantWebhookDeliveries: s.route(r.listTenantWebhookDeliveries, async ({ params, query, req }) => ({
      status: 200,
      body: { items: await listDeliveries(req.em, tenantOf(req), params.webhookId, query.limit) },
    })),
    rotateTenantWebhookSecret: s.route(r.rotateTenantWebhookSecret, async ({ params, body, req }) => {
      const overlap = body.previous_secret_expires_in ?? DEFAULT_OVERLAP_SECONDS;
      const o = { tenantId: tenantOf(req), actor: integratorActor(req), kek: config.KEY_ENCRYPTION_KEY };
      return { status: 200, body: await rotateSecret(req.em, o, params.webhookId, overlap) };
    }),
    replayTenantWebhookDelivery: s.route(r.replayTenantWebhookDelivery, async ({ params, req }) => {
      const o = { tenantId: tenantOf(req), actor: integratorActor(req) };
      await replayDelivery(req.em, o, params.webhookId, params.deliveryId);
      return { status: 202, body: { id: params.deliveryId } };
    }),
  };
}
