import { PRE_AUTHORIZED_CODE_GRANT } from '../../contract/issuance/issuance-request.js';
import type { AuditEntry } from '../audit/audit-log.js';
import type { MailRequest } from '../mail/queue-mail.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import type { CheckedIssuance, CreatedIssuance, IssuanceServices } from './create-issuance.js';
import type { Issuance } from './issuance.entity.js';
import { newTxCode } from './offer-codes.js';
import { offerLifetimes } from './offer-lifetimes.js';
import { offerPageUrl, offerUri } from './offer-urls.js';

/** What recording a checked issuance writes, decided before anything is: the row, the mails, the event. */
export interface IssuancePlan {
  issuance: Issuance;
  mails: MailRequest[];
  audit: AuditEntry;
  created: CreatedIssuance;
}

export function planIssuance(s: IssuanceServices, c: CheckedIssuance, actor: string): IssuancePlan {
  const { tenant, configuration, delivery } = c;
  const offered = delivery.includes('ui') || delivery.includes('email');
  const offerId = s.codes.newOfferId();
  const grantType = c.grantType ?? PRE_AUTHORIZED_CODE_GRANT;
  // With the authorization code grant the holder signs in with a one-time code mailed at login instead.
  const txCode = offered && grantType === PRE_AUTHORIZED_CODE_GRANT ? newTxCode() : undefined;
  const now = new Date();
  const lifetimes = offerLifetimes(s.offerTtlSeconds, tenant, c.expiresIn);
  const scheme = c.offerUriScheme ?? tenant.offerUriScheme ?? 'openid-credential-offer';
  const uri = offerUri(s.issuerUrl, offerId, scheme);
  const issuance: Issuance = {
    id: offerId,
    tenantId: tenant.id,
    configurationId: configuration.id,
    payload: c.payload,
    email: c.email ?? null,
    delivery,
    grantType,
    offerUriScheme: offered ? scheme : null,
    status: 'offered',
    txCodeHash: txCode ? s.codes.hashTxCode(offerId, txCode) : null,
    txCodeFailures: 0,
    holderKey: (c.holderKey as Record<string, string> | undefined) ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetimes.offerSeconds * 1000),
    preAuthorizedCodeTtlSeconds: lifetimes.codeSeconds,
    redeemedAt: null,
    issuedAt: null,
    approvalRequired: c.approvalRequired ?? false,
    deferredTransactionHash: null,
    deferredHolderKeys: null,
    approvalExpiresAt: null,
    companionOf: c.companionOf ?? null,
  };
  const mails = offered ? offerMails(s.issuerUrl, tenant, issuance, txCode) : [];
  const audit = {
    tenantId: tenant.id,
    actor,
    action: 'issuance.created',
    subject: offerId,
    details: { configuration: configuration.id, delivery, grant_type: grantType },
  };
  const created = {
    offerId,
    ...(offered ? { offerUri: uri } : {}),
    expiresIn: lifetimes.offerSeconds,
    delivery,
  };
  return { issuance, mails, audit, created };
}

/**
 * The mails of an offer to its holder: the offer link when the delivery is e-mail, and the tx_code
 * (in a mail of its own, so that one intercepted mail is not enough) when there is one.
 */
export function offerMails(
  issuerUrl: string,
  tenant: Pick<Tenant, 'id' | 'name' | 'mandator'>,
  issuance: Pick<Issuance, 'id' | 'email' | 'delivery' | 'offerUriScheme'>,
  txCode: string | undefined,
): MailRequest[] {
  const to = issuance.email;
  if (!to) return [];
  const organization = tenant.mandator?.organization ?? tenant.name;
  const mails: MailRequest[] = [];
  if (issuance.delivery.includes('email'))
    mails.push({
      tenantId: tenant.id,
      template: 'credential-offer',
      to,
      params: {
        organization,
        offerPage: offerPageUrl(issuerUrl, issuance.id),
        offerUri: offerUri(issuerUrl, issuance.id, issuance.offerUriScheme ?? 'openid-credential-offer'),
      },
    });
  if (txCode) mails.push({ tenantId: tenant.id, template: 'tx-code', to, params: { organization, txCode } });
  return mails;
}
