import { callEndpoint, type HttpOptions } from './http.js';

export type NotificationEvent = 'credential_accepted' | 'credential_failure' | 'credential_deleted';

export interface Notification {
  notificationEndpoint: string;
  accessToken: string;
  notificationId: string;
  event: NotificationEvent;
  /** ASCII only, without `"` and `\` (OID4VCI §11.1). */
  eventDescription?: string;
}

/** Tells the issuer what became of the credentials of one response (OID4VCI §11); 2xx means received. */
export async function sendNotification(n: Notification, http: HttpOptions = {}): Promise<void> {
  const body = {
    notification_id: n.notificationId,
    event: n.event,
    ...(n.eventDescription !== undefined
      ? { event_description: n.eventDescription.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '') }
      : {}),
  };
  await callEndpoint(
    'notification',
    n.notificationEndpoint,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${n.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    http,
  );
}
