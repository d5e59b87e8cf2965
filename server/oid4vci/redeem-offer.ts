import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { ScimUser } from '../directory/scim-user.entity.js';
import type { Issuance } from '../issuance/issuance.entity.js';
import { cachedTenant } from '../tenants/tenant-cache.js';
import { issueAccessToken } from './access-token-store.js';
import { openRefreshFamily } from './refresh/refresh-token-store.js';

/**
 * After this many wrong codes an offer is dead: tx_codes at the token endpoint and one-time codes
 * at the holder's sign-in share the offer's one counter.
 */
const MAX_TX_CODE_FAILURES = 5;

/** What the token request proved beside the code: its DPoP key and the attested wallet. */
export interface TokenBinding {
  /** RFC 9449 `cnf.jkt` of the DPoP proof: the access token is bound to that key. */
  dpopJkt?: string | undefined;
  /** The `sub` of a verified wallet attestation (audited with the redemption). */
  clientId?: string | undefined;
}

/** The tokens of a redeemed offer; a refresh token when the tenant allows credential refresh. */
export interface RedeemedTokens {
  accessToken: string;
  refreshToken?: string;
}

/**
 * Both grants' last step, in the caller's transaction with the offer's row locked and found open:
 * the offer is redeemed (audited) and gets its access token, bound as the request proved. When the
 * tenant sets refresh_token_expires_in, a refresh family is opened with the same binding: both the
 * authorization code and the pre-authorized code grant get a refresh token (RFC 6749 section 6
 * leaves it to the server; the pre-authorized code's holder proved the tx_code as the signed-in
 * holder proved the one-time code).
 */
export async function redeemOffer(
  tx: EntityManager,
  issuance: Issuance,
  binding: TokenBinding,
  details: Record<string, unknown> = {},
): Promise<RedeemedTokens> {
  const payload = issuance.payload;
  issuance.status = 'redeemed';
  issuance.redeemedAt = new Date();
  await tx.flush();
  await appendAuditEvent(tx, {
    tenantId: issuance.tenantId,
    actor: 'wallet',
    action: 'offer.redeemed',
    subject: issuance.id,
    details: {
      ...details,
      token_type: binding.dpopJkt ? 'DPoP' : 'Bearer',
      ...(binding.clientId ? { wallet_client_id: binding.clientId } : {}),
    },
  });
  const accessToken = await issueAccessToken(tx, issuance.id, binding.dpopJkt);
  const ttlSeconds = (await cachedTenant(tx, issuance.tenantId))?.refreshTokenTtlSeconds;
  if (!ttlSeconds || !payload) return { accessToken };
  // The SCIM user the offer was made for (if any): refreshing ends when that user goes or turns inactive.
  const user = await tx.findOne(
    ScimUser,
    { tenantId: issuance.tenantId, issuanceId: issuance.id },
    { fields: ['id'], disableIdentityMap: true },
  );
  const { refreshToken } = await openRefreshFamily(tx, {
    issuanceId: issuance.id,
    tenantId: issuance.tenantId,
    payload,
    dpopJkt: binding.dpopJkt,
    clientId: binding.clientId,
    scimUserId: user?.id,
    ttlSeconds,
  });
  return { accessToken, refreshToken };
}

/**
 * Counts a wrong tx_code or one-time code against the offer, in the caller's transaction with its
 * row locked (the count is committed even though the request is refused); the
 * MAX_TX_CODE_FAILURES-th locks the offer. Audited as `rejected`, or `offer.locked`. True when the
 * offer is now locked.
 */
export async function countWrongCode(
  tx: EntityManager,
  issuance: Issuance,
  actor: 'wallet' | 'holder',
  rejected: string,
): Promise<boolean> {
  issuance.txCodeFailures += 1;
  const locked = issuance.txCodeFailures >= MAX_TX_CODE_FAILURES;
  if (locked) issuance.status = 'locked';
  await tx.flush();
  await appendAuditEvent(tx, {
    tenantId: issuance.tenantId,
    actor,
    action: locked ? 'offer.locked' : rejected,
    subject: issuance.id,
    details: { failures: issuance.txCodeFailures },
  });
  return locked;
}
