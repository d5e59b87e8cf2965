import { WalletError } from './errors.js';
import { callEndpoint, type HttpOptions } from './http.js';

/** A fresh `c_nonce` from the issuer's nonce endpoint: POST with no body and no token (OID4VCI §7). */
export async function requestNonce(nonceEndpoint: string, http: HttpOptions = {}): Promise<string> {
  const { body } = await callEndpoint(
    'nonce',
    nonceEndpoint,
    { method: 'POST', headers: { accept: 'application/json' } },
    http,
  );
  if (typeof body?.c_nonce !== 'string' || !body.c_nonce)
    throw new WalletError('nonce response lacks c_nonce');
  return body.c_nonce;
}
