import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { Issuance } from '../issuance/issuance.entity.js';
import type { OfferCodes } from '../issuance/offer-codes.js';
import { issueAccessToken } from './access-token-store.js';
import { invalidGrant, invalidRequest } from './oauth-error.js';

/** After this many wrong tx_codes the offer is dead. */
export const MAX_TX_CODE_FAILURES = 5;

/** What the token request proved beside the code: its DPoP key and the attested wallet. */
export interface TokenBinding {
  /** RFC 9449 `cnf.jkt` of the DPoP proof: the access token is bound to that key. */
  dpopJkt?: string;
  /** The `sub` of a verified wallet attestation (audited with the redemption). */
  clientId?: string;
}

/**
 * The token endpoint's pre-authorized code grant. The issuance row is locked, so of two wallets
 * racing with the same code exactly one gets a token. A wrong tx_code is counted (and committed)
 * before the error is returned; the fifth kills the offer.
 */
export async function redeemPreAuthorizedCode(
  em: EntityManager,
  codes: OfferCodes,
  code: string,
  txCode: string | undefined,
  binding: TokenBinding = {},
): Promise<string> {
  const read = codes.readPreAuthorizedCode(code);
  if (!read) throw invalidGrant('unknown pre-authorized code');
  // The code's own short clock (OID4VCI 1.0 section 4.1.1); the offer behind it may still be open.
  if (read.expiresAt <= new Date())
    throw invalidGrant('the pre-authorized code has expired; open the offer again for a fresh one');
  const { offerId } = read;
  const outcome = await em.transactional(async (tx) => {
    const issuance = await tx.findOne(Issuance, { id: offerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!issuance) return invalidGrant('unknown pre-authorized code');
    if (issuance.status === 'locked')
      return invalidGrant('the offer is locked after too many wrong tx_codes');
    if (issuance.status !== 'offered') return invalidGrant('the pre-authorized code was already used');
    if (issuance.expiresAt <= new Date()) return invalidGrant('the offer has expired');
    const audit = (action: string, details: Record<string, unknown> = {}) =>
      appendAuditEvent(tx, {
        tenantId: issuance.tenantId,
        actor: 'wallet',
        action,
        subject: issuance.id,
        details,
      });
    if (issuance.txCodeHash) {
      if (!txCode) return invalidRequest('tx_code is required for this offer');
      if (!codes.txCodeMatches(issuance.id, txCode, issuance.txCodeHash)) {
        issuance.txCodeFailures += 1;
        const locked = issuance.txCodeFailures >= MAX_TX_CODE_FAILURES;
        if (locked) issuance.status = 'locked';
        await tx.flush();
        await audit(locked ? 'offer.locked' : 'offer.tx_code_rejected', {
          failures: issuance.txCodeFailures,
        });
        return invalidGrant(locked ? 'wrong tx_code; the offer is now locked' : 'wrong tx_code');
      }
    }
    issuance.status = 'redeemed';
    issuance.redeemedAt = new Date();
    await tx.flush();
    await audit('offer.redeemed', {
      token_type: binding.dpopJkt ? 'DPoP' : 'Bearer',
      ...(binding.clientId ? { wallet_client_id: binding.clientId } : {}),
    });
    return { accessToken: await issueAccessToken(tx, issuance.id, binding.dpopJkt) };
  });
  if (outcome instanceof Error) throw outcome;
  return outcome.accessToken;
}
