import { PRE_AUTHORIZED_CODE_GRANT } from './credential-offer.js';
import { WalletError } from './errors.js';
import { callEndpoint, type HttpOptions } from './http.js';

export interface AccessToken {
  access_token: string;
  token_type: string;
  expires_in?: number;
  authorization_details?: {
    type: string;
    credential_configuration_id?: string;
    credential_identifiers?: string[];
  }[];
  [other: string]: unknown;
}

export interface PreAuthorizedTokenRequest {
  tokenEndpoint: string;
  preAuthorizedCode: string;
  /** Required when the offer's grant carries a `tx_code` object, even an empty one. */
  txCode?: string;
  /** Only for a wallet that is a registered client; anonymous otherwise (OID4VCI §6.1). */
  clientId?: string;
}

/**
 * Token request of the pre-authorized code flow (OID4VCI §6.1): form-encoded POST. An error answer
 * throws OAuthError, e.g. `invalid_grant` for a wrong tx_code or a used or expired code (§6.3).
 */
export async function requestPreAuthorizedToken(req: PreAuthorizedTokenRequest, http: HttpOptions = {}) {
  const form = new URLSearchParams({
    grant_type: PRE_AUTHORIZED_CODE_GRANT,
    'pre-authorized_code': req.preAuthorizedCode,
  });
  if (req.txCode !== undefined) form.set('tx_code', req.txCode);
  if (req.clientId !== undefined) form.set('client_id', req.clientId);
  const { body } = await callEndpoint(
    'token',
    req.tokenEndpoint,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    },
    http,
  );
  if (typeof body?.access_token !== 'string' || typeof body.token_type !== 'string')
    throw new WalletError('token response lacks access_token or token_type');
  if (body.token_type.toLowerCase() !== 'bearer')
    throw new WalletError(`token type ${body.token_type} is not supported (only Bearer)`);
  return body as AccessToken;
}
