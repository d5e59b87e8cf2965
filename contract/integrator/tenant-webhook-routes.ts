import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  WebhookDeliveryList,
  WebhookDeliveryQuery,
  WebhookEndpointList,
  WebhookSecretRotated,
  WebhookSecretRotateRequest,
} from '../admin/webhook.js';
import { ProblemDetails } from '../problem-details.js';

const c = initContract();
const endpointPath = z.object({ webhookId: z.string().uuid() });
const changeProblems = { 401: ProblemDetails, 403: ProblemDetails, 404: ProblemDetails };

/**
 * The tenant's own webhook endpoints through its integrator token: what the admin API offers per
 * tenant, for the token's tenant only, so that a tenant's administrators (and the console) can watch
 * deliveries, replay them and rotate secrets without the operator. Registering and removing an
 * endpoint stays with the operator (the address receives the tenant's events).
 */
export const tenantWebhookRoutes = c.router({
  listTenantWebhooks: {
    method: 'GET',
    path: '/webhooks',
    responses: { 200: WebhookEndpointList, 401: ProblemDetails },
    summary: 'List the tenant’s webhook endpoints (never their secrets)',
  },
  listTenantWebhookDeliveries: {
    method: 'GET',
    path: '/webhooks/:webhookId/deliveries',
    pathParams: endpointPath,
    query: WebhookDeliveryQuery,
    responses: { 200: WebhookDeliveryList, 400: ProblemDetails, 401: ProblemDetails, 404: ProblemDetails },
    summary: 'An endpoint’s latest deliveries, newest first, with every try',
  },
  rotateTenantWebhookSecret: {
    method: 'POST',
    path: '/webhooks/:webhookId/rotate-secret',
    pathParams: endpointPath,
    body: WebhookSecretRotateRequest,
    responses: { 200: WebhookSecretRotated, 400: ProblemDetails, ...changeProblems },
    summary: 'Make a new secret (shown once); the old one keeps signing alongside until it expires',
  },
  replayTenantWebhookDelivery: {
    method: 'POST',
    path: '/webhooks/:webhookId/deliveries/:deliveryId/replay',
    pathParams: endpointPath.extend({ deliveryId: z.string().uuid() }),
    body: c.noBody(),
    responses: { 202: z.object({ id: z.string().uuid() }), ...changeProblems },
    summary: 'Send a delivery again (same webhook-id, fresh timestamp and signature)',
  },
});
