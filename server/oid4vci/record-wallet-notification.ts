import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { IssuedCredential, type WALLET_NOTIFICATIONS } from '../issuance/issued-credential.entity.js';
import { invalidNotificationId } from './oauth-error.js';

/** OID4VCI notification: what the wallet did with the credentials of one credential response. */
export async function recordWalletNotification(
  em: EntityManager,
  issuanceId: string,
  notificationId: string,
  event: (typeof WALLET_NOTIFICATIONS)[number],
  description?: string,
): Promise<void> {
  await em.transactional(async (tx) => {
    const credentials = await tx.find(IssuedCredential, { issuanceId, notificationId });
    const first = credentials[0];
    if (!first) throw invalidNotificationId('unknown notification_id for this access token');
    for (const c of credentials) c.walletNotification = event;
    await tx.flush();
    await appendAuditEvent(tx, {
      tenantId: first.tenantId,
      actor: 'wallet',
      action: 'credential.notification',
      subject: issuanceId,
      details: {
        event,
        credentials: credentials.map((c) => c.id),
        ...(description ? { description: description.slice(0, 300) } : {}),
      },
    });
  });
}
