import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { Issuance } from '../issuance/issuance.entity.js';
import { issueAccessToken } from './access-token-store.js';

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

/**
 * Both grants' last step, in the caller's transaction with the offer's row locked and found open:
 * the offer is redeemed (audited) and gets its access token, bound as the request proved.
 */
export async function redeemOffer(
  tx: EntityManager,
  issuance: Issuance,
  binding: TokenBinding,
  details: Record<string, unknown> = {},
): Promise<string> {
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
  return issueAccessToken(tx, issuance.id, binding.dpopJkt);
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
