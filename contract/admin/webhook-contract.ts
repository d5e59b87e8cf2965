import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ProblemDetails } from '../problem-details.js';
import { TenantId } from './tenant.js';
import {
  WebhookDeliveryList,
  WebhookDeliveryQuery,
  WebhookEndpointCreated,
  WebhookEndpointCreateRequest,
  WebhookEndpointList,
  WebhookSecretRotated,
  WebhookSecretRotateRequest,
} from './webhook.js';

const c = initContract();
const tenantPath = z.object({ id: TenantId });
const endpointPath = z.object({ id: TenantId, webhookId: z.string().uuid() });
const notFound = { 401: ProblemDetails, 404: ProblemDetails };

/**
 * A tenant's webhook endpoints: events signed per Standard Webhooks (webhook-id, webhook-timestamp,
 * webhook-signature), delivered from the outbox with retries, each try visible and replayable.
 */
export const webhookContract = c.router(
  {
    createWebhook: {
      method: 'POST',
      path: '/tenants/:id/webhooks',
      pathParams: tenantPath,
      body: WebhookEndpointCreateRequest,
      responses: { 201: WebhookEndpointCreated, 400: ProblemDetails, ...notFound },
      summary: 'Register an endpoint for the tenant’s events; the answer holds its secret, once',
    },
    listWebhooks: {
      method: 'GET',
      path: '/tenants/:id/webhooks',
      pathParams: tenantPath,
      responses: { 200: WebhookEndpointList, ...notFound },
      summary: 'List the tenant’s webhook endpoints (never their secrets)',
    },
    deleteWebhook: {
      method: 'DELETE',
      path: '/tenants/:id/webhooks/:webhookId',
      pathParams: endpointPath,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...notFound },
      summary: 'Remove an endpoint; its pending deliveries are dropped',
    },
    rotateWebhookSecret: {
      method: 'POST',
      path: '/tenants/:id/webhooks/:webhookId/rotate-secret',
      pathParams: endpointPath,
      body: WebhookSecretRotateRequest,
      responses: { 200: WebhookSecretRotated, 400: ProblemDetails, ...notFound },
      summary: 'Make a new secret; the old one keeps signing alongside until it expires',
    },
    listWebhookDeliveries: {
      method: 'GET',
      path: '/tenants/:id/webhooks/:webhookId/deliveries',
      pathParams: endpointPath,
      query: WebhookDeliveryQuery,
      responses: { 200: WebhookDeliveryList, 400: ProblemDetails, ...notFound },
      summary: 'The endpoint’s latest deliveries, newest first, with every try',
    },
    replayWebhookDelivery: {
      method: 'POST',
      path: '/tenants/:id/webhooks/:webhookId/deliveries/:deliveryId/replay',
      pathParams: endpointPath.extend({ deliveryId: z.string().uuid() }),
      body: c.noBody(),
      responses: { 202: z.object({ id: z.string().uuid() }), ...notFound },
      summary: 'Send a delivery again (same webhook-id, fresh timestamp and signature)',
    },
  },
  { pathPrefix: '/admin/v1', strictStatusCodes: true, metadata: { security: 'admin' } as const },
);
