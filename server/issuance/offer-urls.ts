/** Where a wallet fetches the offer (OID4VCI credential_offer_uri) and where a person opens it. */
export const offerLocation = (issuerUrl: string, offerId: string) =>
  `${issuerUrl}/oid4vci/v1/credential-offer/${offerId}`;

export const offerUri = (issuerUrl: string, offerId: string) =>
  `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offerLocation(issuerUrl, offerId))}`;

/** The web page of an e-mailed offer: its QR code and a same-device link. */
export const offerPageUrl = (issuerUrl: string, offerId: string) =>
  `${issuerUrl}/oid4vci/v1/offer/${offerId}`;
