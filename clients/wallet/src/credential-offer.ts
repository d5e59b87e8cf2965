import { WalletError } from './errors.js';
import { asObject, getJson, type HttpOptions, stringField } from './http.js';

export const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** What a wallet must know about the tx_code before it asks the End-User for it (OID4VCI §4.1.1). */
export interface TxCodeRequirement {
  input_mode?: 'numeric' | 'text';
  length?: number;
  description?: string;
}

export interface PreAuthorizedCodeGrant {
  'pre-authorized_code': string;
  /** Present (possibly empty) when a tx_code must be sent with the token request. */
  tx_code?: TxCodeRequirement;
  authorization_server?: string;
}

/** The Credential Offer object (OID4VCI §4.1.1), with the members this wallet uses typed. */
export interface CredentialOffer {
  credential_issuer: string;
  credential_configuration_ids: string[];
  grants?: { [PRE_AUTHORIZED_CODE_GRANT]?: PreAuthorizedCodeGrant; [grant: string]: unknown };
  [other: string]: unknown;
}

/**
 * Reads an offer link (`openid-credential-offer://?credential_offer_uri=…` or `…?credential_offer=…`,
 * any scheme, since a wallet may be invoked through its own https link too). Exactly one of the two
 * parameters must be present (OID4VCI §4.1).
 */
export function parseCredentialOfferUri(
  uri: string,
): { credentialOfferUri: string } | { credentialOffer: CredentialOffer } {
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1) : '';
  const params = new URLSearchParams(query);
  const byReference = params.get('credential_offer_uri');
  const byValue = params.get('credential_offer');
  if (byReference && byValue)
    throw new WalletError('offer has both credential_offer and credential_offer_uri');
  if (byReference) return { credentialOfferUri: byReference };
  if (byValue) return { credentialOffer: validateCredentialOffer(JSON.parse(byValue)) };
  throw new WalletError('offer has neither credential_offer nor credential_offer_uri');
}

/** The offer object itself: taken from the link, or fetched (GET, application/json) from its URI. */
export async function resolveCredentialOffer(uri: string, http: HttpOptions = {}): Promise<CredentialOffer> {
  const parsed = parseCredentialOfferUri(uri);
  if ('credentialOffer' in parsed) return parsed.credentialOffer;
  return validateCredentialOffer(await getJson(parsed.credentialOfferUri, 'credential offer', http));
}

export function validateCredentialOffer(value: unknown): CredentialOffer {
  const offer = asObject(value, 'credential offer');
  stringField(offer, 'credential_issuer', 'credential offer');
  const ids = offer.credential_configuration_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((i) => typeof i === 'string'))
    throw new WalletError('credential offer needs a non-empty credential_configuration_ids array of strings');
  if (new Set(ids).size !== ids.length) throw new WalletError('credential_configuration_ids are not unique');
  const grant = (offer.grants as Record<string, unknown> | undefined)?.[PRE_AUTHORIZED_CODE_GRANT];
  if (grant !== undefined)
    stringField(asObject(grant, 'pre-authorized grant'), 'pre-authorized_code', 'grant');
  return offer as CredentialOffer;
}

/** The pre-authorized code grant of an offer; this wallet supports no other grant. */
export function preAuthorizedGrant(offer: CredentialOffer): PreAuthorizedCodeGrant {
  const grant = offer.grants?.[PRE_AUTHORIZED_CODE_GRANT];
  if (!grant) throw new WalletError('the offer has no pre-authorized code grant');
  return grant;
}
