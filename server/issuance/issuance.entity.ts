import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ISSUANCE_STATUSES } from '../../contract/issuance/issuance.js';
import type { DeliveryModeName, OfferGrantType } from '../../contract/issuance/issuance-request.js';
import { OFFER_URI_SCHEMES } from '../../contract/issuance/offer-uri-scheme.js';

/**
 * One credential offer of a tenant: what to issue, to whom it was delivered, and how far the
 * wallet got. The payload (personal data) is erased once the credentials are issued.
 */
export const Issuance = defineEntity({
  name: 'Issuance',
  tableName: 'issuance',
  properties: {
    id: p.string().primary(),
    tenantId: p.string(),
    configurationId: p.string(),
    payload: p.json<Record<string, unknown>>().nullable(),
    email: p.string().nullable(),
    delivery: p.json<DeliveryModeName[]>(),
    /** The grant the offer names: the pre-authorized code, or the authorization code (PAR, login). */
    grantType: p.string().$type<OfferGrantType>(),
    /** Scheme of the offer's link, as chosen when it was made; null (older offers): openid-credential-offer. */
    offerUriScheme: p.enum(OFFER_URI_SCHEMES).nullable(),
    status: p.enum(ISSUANCE_STATUSES),
    /** SHA-256 of the offer id and the tx_code; null when no code was sent. */
    txCodeHash: p.string().nullable(),
    txCodeFailures: p.integer(),
    holderKey: p.json<Record<string, string>>().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    /** Seconds each pre-authorized code handed out for this offer is good (never past expiresAt). */
    preAuthorizedCodeTtlSeconds: p.integer(),
    redeemedAt: p.datetime().nullable(),
    issuedAt: p.datetime().nullable(),
    /** Issued only once the integrator approves (OID4VCI section 9 deferred issuance). */
    approvalRequired: p.boolean(),
    /** SHA-256 of the transaction_id the wallet was given; never the id itself. */
    deferredTransactionHash: p.string().nullable(),
    /** The holder keys the deferred credential request proved, signed for once approved. */
    deferredHolderKeys: p.json<Record<string, unknown>[]>().nullable(),
    /** Past this an undecided issuance is expired: the wallet is denied, the integrator answered 409. */
    approvalExpiresAt: p.datetime().nullable(),
    /** A credential provisioned beside a SCIM user's main one: that main issuance, which it follows. */
    companionOf: p.string().nullable(),
  },
});

export type Issuance = InferEntity<typeof Issuance>;
