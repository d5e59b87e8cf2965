import { z } from 'zod';

/** What a tenant's endpoints can be told about. */
export const WEBHOOK_EVENT_TYPES = [
  'issuance.redeemed',
  'issuance.awaiting_approval',
  'issuance.approved',
  'issuance.declined',
  'credential.issued',
  'credential.revoked',
  'credential.suspended',
  'credential.unsuspended',
  'presentation.verified',
  'presentation.failed',
  'approval.verified',
  'approval.failed',
  'scim.user.provisioned',
  'scim.user.deprovisioned',
] as const;

export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WebhookEndpointCreateRequest = z
  .object({
    url: z
      .string()
      .url()
      .max(2000)
      .describe('https address that receives the events (plain http only where the deployment allows it)'),
    events: z
      .array(WebhookEventType)
      .min(1)
      .optional()
      .describe('The events to send; absent: every event type'),
    description: z.string().max(200).optional(),
  })
  .strict();

export const WebhookEndpoint = z.object({
  id: z.string().uuid(),
  url: z.string(),
  events: z.array(WebhookEventType),
  description: z.string().nullable(),
  created_at: z.string().datetime(),
  secret_rotated_at: z.string().datetime().nullable(),
  previous_secret_expires_at: z
    .string()
    .datetime()
    .nullable()
    .describe('While in the future, deliveries are signed with the previous secret as well'),
});

export const WebhookEndpointCreated = WebhookEndpoint.extend({
  secret: z
    .string()
    .describe('whsec_ followed by the base64 HMAC key (Standard Webhooks); shown only this once'),
});

export const WebhookEndpointList = z.object({ items: z.array(WebhookEndpoint) });

export const WebhookSecretRotateRequest = z
  .object({
    previous_secret_expires_in: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .optional()
      .describe('Seconds the old secret keeps signing next to the new one (default 86400; 0: stop now)'),
  })
  .strict();

export const WebhookSecretRotated = z.object({
  id: z.string().uuid(),
  secret: z.string().describe('The new secret; shown only this once'),
  previous_secret_expires_at: z.string().datetime().nullable(),
});

export const WebhookAttempt = z.object({
  at: z.string().datetime(),
  status: z.number().int().nullable().describe('The HTTP status answered; null when none came'),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const WebhookDelivery = z.object({
  id: z.string().describe('The webhook-id header of the message'),
  event_type: WebhookEventType,
  status: z
    .enum(['pending', 'delivered', 'failed'])
    .describe('failed: every try was refused; replay it once the endpoint works'),
  payload: z.record(z.unknown()).describe('The body sent (a WebhookEvent)'),
  created_at: z.string().datetime(),
  delivered_at: z.string().datetime().nullable(),
  attempts: z.array(WebhookAttempt),
});

export const WebhookDeliveryList = z.object({ items: z.array(WebhookDelivery) });

export const WebhookDeliveryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * The body of every webhook (Standard Webhooks shape). It names things by id only: read the issuance,
 * credential, session or SCIM user through the API for more.
 */
export const WebhookEvent = z.object({
  type: WebhookEventType,
  timestamp: z.string().datetime().describe('When the change was committed'),
  tenant_id: z.string(),
  data: z
    .object({
      issuance_id: z.string().optional(),
      credential_configuration_id: z.string().optional(),
      credential_id: z.string().optional(),
      credential_ids: z.array(z.string()).optional(),
      session_id: z.string().optional(),
      approval_id: z.string().optional(),
      credential_type: z.string().nullable().optional(),
      reason: z
        .string()
        .optional()
        .describe(
          'presentation.failed, approval.failed: why; scim.user.deprovisioned: deleted or deactivated',
        ),
      scim_user_id: z.string().optional(),
      credential_outcome: z.string().optional(),
    })
    .describe('Ids of what changed; which are present depends on the type'),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;
