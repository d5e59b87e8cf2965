import { DEFAULT_PRE_AUTHORIZED_CODE_SECONDS } from '../../contract/issuance/offer-lifetimes.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import type { Issuance } from './issuance.entity.js';

/**
 * The lifetimes of a new offer: the request's, else the tenant's, else the service's (24 hours for
 * the offer, ten minutes for each pre-authorized code fetched from it). The offer's link and its
 * mailed tx_code must outlast a person reading mail; the code itself, which the wallet fetches and
 * redeems in one go, need not, and OID4VCI 1.0 section 4.1.1 wants it short-lived.
 */
export function offerLifetimes(
  serviceOfferSeconds: number,
  tenant: Pick<Tenant, 'offerTtlSeconds' | 'preAuthorizedCodeTtlSeconds'>,
  requestedOfferSeconds?: number,
) {
  return {
    offerSeconds: requestedOfferSeconds ?? tenant.offerTtlSeconds ?? serviceOfferSeconds,
    codeSeconds: tenant.preAuthorizedCodeTtlSeconds ?? DEFAULT_PRE_AUTHORIZED_CODE_SECONDS,
  };
}

/** When a pre-authorized code handed out now stops working: its own lifetime, never past the offer. */
export function codeExpiry(
  issuance: Pick<Issuance, 'expiresAt' | 'preAuthorizedCodeTtlSeconds'>,
  now = Date.now(),
): Date {
  return new Date(Math.min(now + issuance.preAuthorizedCodeTtlSeconds * 1000, issuance.expiresAt.getTime()));
}
