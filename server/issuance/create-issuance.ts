import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveryModeName, IssuanceRequest } from '../../contract/issuance/issuance-request.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import type { PayloadValidator } from '../credential-configurations/payload-validator.js';
import { validationError } from '../http/problem.js';
import type { Signer } from '../keys/signer.js';
import { queueMail } from '../mail/queue-mail.js';
import { getTenant } from '../tenants/tenant-service.js';
import { Issuance } from './issuance.entity.js';
import { issueCredentials } from './issue-credentials.js';
import type { OfferCodes } from './offer-codes.js';
import { offerPageUrl, offerUri } from './offer-urls.js';

export interface IssuanceServices {
  signer: Signer;
  validator: PayloadValidator;
  codes: OfferCodes;
  issuerUrl: string;
  offerTtlSeconds: number;
}

export interface CreatedIssuance {
  offerId: string;
  offerUri?: string;
  expiresIn: number;
  delivery: DeliveryModeName[];
  credential?: { id: string; credential: string };
}

/**
 * Creates an offer (and, for direct delivery, the credential) for a tenant. Everything is checked
 * before anything is written; the offer, its mails, the credential and the audit event then commit
 * together or not at all.
 */
export async function createIssuance(
  em: EntityManager,
  s: IssuanceServices,
  tenantId: string,
  actor: string,
  req: IssuanceRequest,
): Promise<CreatedIssuance> {
  const tenant = await getTenant(em, tenantId);
  const configuration = await findConfiguration(em, req.credential_configuration_id);
  const field = 'credential_configuration_id';
  if (!configuration) throw validationError([{ field, message: 'unknown credential configuration' }]);
  if (tenant.credentialConfigurations && !tenant.credentialConfigurations.includes(configuration.id)) {
    throw validationError([{ field, message: 'this tenant may not issue this credential configuration' }]);
  }
  const payloadErrors = s.validator.validate(configuration.id, configuration.payloadSchema, req.payload);
  if (payloadErrors.length) throw validationError(payloadErrors);
  const delivery = [...new Set((req.delivery ?? tenant.delivery).split(','))] as DeliveryModeName[];
  const offered = delivery.includes('ui') || delivery.includes('email');
  if (offered && !req.email)
    throw validationError([{ field: 'email', message: 'required for ui and email delivery' }]);
  if (req.holder_key && !delivery.includes('direct')) {
    throw validationError([{ field: 'holder_key', message: 'only used with direct delivery' }]);
  }

  const offerId = s.codes.newOfferId();
  const txCode = offered ? s.codes.newTxCode() : undefined;
  const now = new Date();
  return em.transactional(async (tx) => {
    const issuance = tx.create(Issuance, {
      id: offerId,
      tenantId,
      configurationId: configuration.id,
      payload: req.payload,
      email: req.email ?? null,
      delivery,
      status: 'offered',
      txCodeHash: txCode ? s.codes.hashTxCode(offerId, txCode) : null,
      txCodeFailures: 0,
      holderKey: req.holder_key ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + s.offerTtlSeconds * 1000),
      redeemedAt: null,
      issuedAt: null,
    });
    await tx.flush();
    const organization = tenant.mandator?.organization ?? tenant.name;
    if (txCode && req.email) {
      if (delivery.includes('email')) {
        const page = offerPageUrl(s.issuerUrl, offerId);
        await queueMail(tx, {
          tenantId,
          template: 'credential-offer',
          to: req.email,
          params: { organization, offerPage: page },
        });
      }
      await queueMail(tx, { tenantId, template: 'tx-code', to: req.email, params: { organization, txCode } });
    }
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'issuance.created',
      subject: offerId,
      details: { configuration: configuration.id, delivery },
    });
    let credential: CreatedIssuance['credential'];
    if (delivery.includes('direct')) {
      // With an offer as well, the direct copy is issued from a snapshot so the offer stays open.
      const target = offered ? { ...issuance } : issuance;
      const ctx = { signer: s.signer, issuerUrl: s.issuerUrl, actor };
      const batch = await issueCredentials(tx, ctx, target, configuration, [req.holder_key ?? undefined]);
      credential = batch.credentials[0];
    }
    return {
      offerId,
      ...(offered ? { offerUri: offerUri(s.issuerUrl, offerId) } : {}),
      expiresIn: s.offerTtlSeconds,
      delivery,
      ...(credential ? { credential } : {}),
    };
  });
}
