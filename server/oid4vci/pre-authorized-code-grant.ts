import type { EntityManager } from '@mikro-orm/postgresql';
import type { OfferCodes } from '../issuance/offer-codes.js';
import { redeemPreAuthorizedCode } from '../issuance/redeem-pre-authorized-code.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-token-store.js';
import { invalidRequest } from './oauth-error.js';

/** The form fields of a token request of this grant (OID4VCI 1.0 section 6.1). */
export interface PreAuthorizedCodeTokenRequest {
  'pre-authorized_code'?: unknown;
  tx_code?: unknown;
}

/**
 * The pre-authorized code grant, wherever the token request arrives: at `/oauth2/token`, the token
 * endpoint the metadata names, and at `/oid4vci/v1/token`, kept for wallets that learnt it before.
 */
export async function preAuthorizedCodeGrant(
  em: EntityManager,
  codes: OfferCodes,
  body: PreAuthorizedCodeTokenRequest,
) {
  const code = body['pre-authorized_code'];
  if (typeof code !== 'string' || !code) throw invalidRequest('pre-authorized_code is required, once');
  if (body.tx_code !== undefined && typeof body.tx_code !== 'string')
    throw invalidRequest('tx_code must be given once');
  const accessToken = await redeemPreAuthorizedCode(em, codes, code, body.tx_code);
  return { access_token: accessToken, token_type: 'Bearer' as const, expires_in: ACCESS_TOKEN_TTL_SECONDS };
}
