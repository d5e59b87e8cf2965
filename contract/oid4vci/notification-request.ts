import { z } from 'zod';

/** OID4VCI 1.0 section 11.1. */
export const NotificationRequest = z
  .object({
    notification_id: z.string().min(1),
    event: z.enum(['credential_accepted', 'credential_failure', 'credential_deleted']),
    event_description: z.string().max(1000).optional(),
  })
  .passthrough();
