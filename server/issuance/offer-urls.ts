import type { OfferUriScheme } from '../../contract/issuance/offer-uri-scheme.js';

/** Where a wallet fetches the offer (OID4VCI credential_offer_uri) and where a person opens it. */
export const offerLocation = (issuerUrl: string, offerId: string) =>
  `${issuerUrl}/oid4vci/v1/credential-offer/${offerId}`;

/**
 * The link that opens a wallet with the offer: `openid-credential-offer://` (OID4VCI 1.0 section
 * 4.1) or `haip-vci://` (HAIP 1.0 section 4.2), the same offer by reference either way.
 */
export const offerUri = (
  issuerUrl: string,
  offerId: string,
  scheme: OfferUriScheme | null = 'openid-credential-offer',
) =>
  `${scheme ?? 'openid-credential-offer'}://?credential_offer_uri=${encodeURIComponent(offerLocation(issuerUrl, offerId))}`;

/** The web page of an e-mailed offer: its QR code and a same-device link. */
export const offerPageUrl = (issuerUrl: string, offerId: string) =>
  `${issuerUrl}/oid4vci/v1/offer/${offerId}`;
