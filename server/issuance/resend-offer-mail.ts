import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PRE_AUTHORIZED_CODE_GRANT } from '../../contract/issuance/issuance-request.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { conflict, notFound } from '../domain-errors.js';
import { queueMail } from '../mail/queue-mail.js';
import { getTenant } from '../tenants/tenant-service.js';
import type { IssuanceServices } from './create-issuance.js';
import { Issuance } from './issuance.entity.js';
import { newTxCode } from './offer-codes.js';
import { offerMails } from './plan-issuance.js';

/**
 * Mails an open offer to its holder again (a lost or expired-in-the-inbox mail, a holder who typed
 * the code wrong too often). The tx_code is kept only as a hash, so the old one cannot be sent
 * again: a new one replaces it, the old one stops working, and the count of wrong codes starts over,
 * which also reopens an offer those wrong codes had locked. Only an offer no wallet has redeemed and
 * that has not expired can be mailed again; one with nothing to mail (ui delivery with the
 * authorization code grant) is a conflict too. Audited with the templates sent, never the code.
 */
export async function resendOfferMail(
  em: EntityManager,
  s: Pick<IssuanceServices, 'issuerUrl' | 'codes'>,
  tenantId: string,
  issuanceId: string,
  actor: string,
): Promise<Issuance> {
  return em.transactional(async (tx) => {
    const issuance = await tx.findOne(
      Issuance,
      { id: issuanceId, tenantId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!issuance) throw notFound(`issuance ${issuanceId}`);
    const open = ['offered', 'locked'].includes(issuance.status) && issuance.expiresAt > new Date();
    if (!open)
      throw conflict(`a ${issuance.status} issuance has no open offer to mail again`, 'offer-not-open');
    if (!issuance.email) throw conflict('the issuance has no e-mail address to mail', 'no-email');
    const txCode = issuance.grantType === PRE_AUTHORIZED_CODE_GRANT ? newTxCode() : undefined;
    const mails = offerMails(s.issuerUrl, await getTenant(tx, tenantId), issuance, txCode);
    if (!mails.length)
      throw conflict('the offer is shown to the holder, not mailed, and has no tx_code', 'nothing-to-mail');
    const reopened = issuance.status === 'locked';
    if (txCode) {
      issuance.txCodeHash = s.codes.hashTxCode(issuance.id, txCode);
      issuance.txCodeFailures = 0;
      issuance.status = 'offered';
    }
    for (const mail of mails) await queueMail(tx, mail);
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'issuance.mail_resent',
      subject: issuance.id,
      details: { mails: mails.map((m) => m.template), new_tx_code: Boolean(txCode), reopened },
    });
    return issuance;
  });
}
