import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Issuance } from '../issuance/issuance.entity.js';
import type { OfferCodes } from '../issuance/offer-codes.js';
import type { Sql } from '../persistence/sql.js';
import { invalidGrant, invalidRequest } from './oauth-error.js';
import { redeemInOneStatement } from './redeem-in-one-statement.js';
import { countWrongCode, type RedeemedTokens, redeemOffer, type TokenBinding } from './redeem-offer.js';

/**
 * The token endpoint's pre-authorized code grant, for a code already read (its MAC checked). The
 * common case is one read and one write (redeem-in-one-statement.ts); otherwise the issuance row is
 * locked, so of two wallets racing with the same code exactly one gets a token. A
 * wrong tx_code is counted (and committed) before the error is returned; the fifth kills the offer.
 */
export async function redeemPreAuthorizedCode(
  em: EntityManager,
  codes: OfferCodes,
  code: { offerId: string; expiresAt: Date },
  txCode: string | undefined,
  binding: TokenBinding = {},
  sql?: Sql,
): Promise<RedeemedTokens> {
  // The code's own short clock (OID4VCI 1.0 section 4.1.1); the offer behind it may still be open.
  if (code.expiresAt <= new Date())
    throw invalidGrant('the pre-authorized code has expired; open the offer again for a fresh one');
  const quick = sql && (await redeemInOneStatement(em, sql, codes, code.offerId, txCode, binding));
  if (quick) return quick;
  const outcome = await em.transactional(async (tx) => {
    const issuance = await tx.findOne(
      Issuance,
      { id: code.offerId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!issuance) return invalidGrant('unknown pre-authorized code');
    if (issuance.status === 'locked')
      return invalidGrant('the offer is locked after too many wrong tx_codes');
    if (issuance.status !== 'offered') return invalidGrant('the pre-authorized code was already used');
    if (issuance.expiresAt <= new Date()) return invalidGrant('the offer has expired');
    if (issuance.txCodeHash) {
      if (!txCode) return invalidRequest('tx_code is required for this offer');
      if (!codes.txCodeMatches(issuance.id, txCode, issuance.txCodeHash)) {
        const locked = await countWrongCode(tx, issuance, 'wallet', 'offer.tx_code_rejected');
        return invalidGrant(locked ? 'wrong tx_code; the offer is now locked' : 'wrong tx_code');
      }
    }
    return redeemOffer(tx, issuance, binding);
  });
  if (outcome instanceof Error) throw outcome;
  return outcome;
}
