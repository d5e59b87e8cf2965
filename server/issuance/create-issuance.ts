import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AUTHORIZATION_CODE_GRANT,
  type DeliveryModeName,
  type IssuanceRequest,
  type OfferGrantType,
} from '../../contract/issuance/issuance-request.js';
import type { OfferUriScheme } from '../../contract/issuance/offer-uri-scheme.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import type { PayloadValidator } from '../credential-configurations/payload-validator.js';
import { validationError } from '../domain-errors.js';
import { issuingFormat } from '../formats/credential-formats.js';
import type { Signer } from '../keys/signer.js';
import { queueMail } from '../mail/queue-mail.js';
import type { Sql } from '../persistence/sql.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { getTenant } from '../tenants/tenant-service.js';
import { Issuance } from './issuance.entity.js';
import { issueCredentials } from './issue-credentials.js';
import type { OfferCodes } from './offer-codes.js';
import { planIssuance } from './plan-issuance.js';
import { recordOffer } from './record-offer.js';

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

/** An issuance whose inputs have been checked, ready to be recorded in a transaction. */
export interface CheckedIssuance {
  tenant: Tenant;
  configuration: CredentialConfiguration;
  payload: Record<string, unknown>;
  delivery: DeliveryModeName[];
  email?: string | undefined;
  holderKey?: Record<string, unknown> | undefined;
  /** Seconds the offer stays open, when the request says. */
  expiresIn?: number | undefined;
  /** The grant the offer names (absent: the pre-authorized code). */
  grantType?: OfferGrantType | undefined;
  /** The offer link's scheme (absent: the tenant's, else openid-credential-offer). */
  offerUriScheme?: OfferUriScheme | undefined;
  /** The wallet's credential request waits for the integrator's approval (deferred issuance). */
  approvalRequired?: boolean | undefined;
  /** The main issuance this one is provisioned beside (SCIM `additional_configuration_ids`). */
  companionOf?: string | undefined;
}

/**
 * Checks an integrator's issuance request against the tenant and the configuration: every problem
 * is found before anything is written.
 */
export async function checkIssuanceRequest(
  em: EntityManager,
  s: IssuanceServices,
  tenantId: string,
  req: IssuanceRequest,
): Promise<CheckedIssuance> {
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
  if (delivery.includes('direct') && !req.holder_key && issuingFormat(configuration).holderBindingRequired) {
    throw validationError([
      {
        field: 'holder_key',
        message: `required for direct delivery of ${configuration.id}: it is always bound to a key`,
      },
    ]);
  }
  if (req.grant_type === AUTHORIZATION_CODE_GRANT && !offered) {
    throw validationError([{ field: 'grant_type', message: 'only used when an offer is made (ui, email)' }]);
  }
  if (req.offer_uri_scheme !== undefined && !offered) {
    throw validationError([
      { field: 'offer_uri_scheme', message: 'only used when an offer is made (ui, email)' },
    ]);
  }
  // A direct delivery is signed in the response: there is no wallet request to defer.
  if (req.approval_required && delivery.includes('direct')) {
    throw validationError([{ field: 'approval_required', message: 'not used with direct delivery' }]);
  }
  if (req.expires_in !== undefined && !offered) {
    throw validationError([{ field: 'expires_in', message: 'only used when an offer is made (ui, email)' }]);
  }
  return {
    tenant,
    configuration,
    payload: req.payload,
    delivery,
    email: req.email,
    holderKey: req.holder_key,
    expiresIn: req.expires_in,
    grantType: req.grant_type,
    offerUriScheme: req.offer_uri_scheme,
    approvalRequired: req.approval_required,
  };
}

/**
 * Creates an offer (and, for direct delivery, the credential): checked first, then recorded at once.
 * An offer alone, outside any caller's transaction (no Idempotency-Key), is one statement
 * (recordOffer); anything else one transaction.
 */
export async function createIssuance(
  em: EntityManager,
  s: IssuanceServices,
  tenantId: string,
  actor: string,
  req: IssuanceRequest,
  sql?: Sql,
): Promise<CreatedIssuance> {
  const checked = await checkIssuanceRequest(em, s, tenantId, req);
  if (sql && !em.isInTransaction() && !checked.delivery.includes('direct'))
    return recordOffer(em, sql, planIssuance(s, checked, actor));
  return em.transactional((tx) => recordIssuance(tx, s, checked, actor));
}

/**
 * Records a checked issuance in the caller's transaction: the offer with its tx_code and mails,
 * the audit event and, for direct delivery, the signed credential.
 */
export async function recordIssuance(
  tx: EntityManager,
  s: IssuanceServices,
  c: CheckedIssuance,
  actor: string,
): Promise<CreatedIssuance> {
  const plan = planIssuance(s, c, actor);
  const direct = c.delivery.includes('direct');
  // Direct delivery alone is done at once: the row is written issued, without its payload, rather
  // than written and updated. With an offer as well, the offer stays open with its payload.
  const issued = direct && !plan.created.offerUri;
  // A native INSERT, not the unit of work: a flush here would also write the caller's pending
  // changes (a SCIM user) early, and they would be written again once the caller is done.
  await tx.insert(
    Issuance,
    issued ? { ...plan.issuance, status: 'issued', issuedAt: new Date(), payload: null } : plan.issuance,
  );
  for (const mail of plan.mails) await queueMail(tx, mail);
  await appendAuditEvent(tx, plan.audit);
  if (!direct) return plan.created;
  const ctx = { signer: s.signer, issuerUrl: s.issuerUrl, actor };
  const batch = await issueCredentials(tx, ctx, plan.issuance, c.configuration, [c.holderKey]);
  return { ...plan.created, credential: batch.credentials[0] };
}
