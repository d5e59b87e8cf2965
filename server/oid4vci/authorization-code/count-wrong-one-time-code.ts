import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Issuance } from '../../issuance/issuance.entity.js';
import { countWrongCode } from '../redeem-offer.js';

/**
 * A wrong one-time code counts against the offer, not only against the sign-in: otherwise a new PAR
 * would give a guesser five fresh attempts (and mail the holder) as often as it liked. The offer
 * shares the tx_code's counter and limit (an authorization code offer has no tx_code) and is locked
 * at the limit, as a pre-authorized offer is. True when the offer is (now) locked or gone.
 */
export async function countWrongOneTimeCode(em: EntityManager, issuanceId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const issuance = await tx.findOne(Issuance, { id: issuanceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (issuance?.status !== 'offered') return true;
    return countWrongCode(tx, issuance, 'holder', 'offer.one_time_code_rejected');
  });
}
