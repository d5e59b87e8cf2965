import { statusListUri } from '../status-list/status-list-token.js';
import type { Issuance } from './issuance.entity.js';
import type { IssuedCredential } from './issued-credential.entity.js';
import { offerPageUrl, offerUri } from './offer-urls.js';

export function issuanceView(i: Issuance, credentials: IssuedCredential[], issuerUrl: string) {
  const now = new Date();
  const expired =
    (i.status === 'offered' && i.expiresAt <= now) ||
    (i.status === 'awaiting_approval' && (i.approvalExpiresAt ?? now) <= now);
  return {
    id: i.id,
    credential_configuration_id: i.configurationId,
    status: expired ? ('expired' as const) : i.status,
    delivery: i.delivery,
    approval_required: i.approvalRequired,
    email: i.email ?? null,
    // Only the link of an offer that can still be redeemed; a spent one would lead nowhere.
    ...(i.status === 'offered' && !expired
      ? {
          credential_offer_uri: offerUri(issuerUrl, i.id, i.offerUriScheme),
          offer_page_url: offerPageUrl(issuerUrl, i.id),
        }
      : {}),
    created_at: i.createdAt.toISOString(),
    expires_at: i.expiresAt.toISOString(),
    credentials: credentials.map((c) => ({
      id: c.id,
      status: c.status,
      status_list: { idx: c.statusIdx, uri: statusListUri(issuerUrl, c.statusListId) },
      issued_at: c.issuedAt.toISOString(),
      expires_at: c.expiresAt.toISOString(),
      wallet_notification: c.walletNotification ?? null,
    })),
  };
}
