import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../../audit/audit-log.js';
import { Issuance } from '../../issuance/issuance.entity.js';
import { MAX_TX_CODE_FAILURES } from '../redeem-pre-authorized-code.js';

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
    issuance.txCodeFailures += 1;
    const locked = issuance.txCodeFailures >= MAX_TX_CODE_FAILURES;
    if (locked) issuance.status = 'locked';
    await tx.flush();
    await appendAuditEvent(tx, {
      tenantId: issuance.tenantId,
      actor: 'holder',
      action: locked ? 'offer.locked' : 'offer.one_time_code_rejected',
      subject: issuance.id,
      details: { failures: issuance.txCodeFailures },
    });
    return locked;
  });
}
