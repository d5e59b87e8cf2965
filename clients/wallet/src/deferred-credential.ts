import type { CredentialEncryption } from './credential-encryption.js';
import {
  type CredentialResponse,
  credentialsOf,
  deferredOf,
  postCredentialMessage,
} from './credential-request.js';
import { DeferredIssuance, WalletError } from './errors.js';
import type { HttpOptions } from './http.js';

export interface DeferredCredentialRequest {
  deferredCredentialEndpoint: string;
  /** The access token the deferred credential request was made with. */
  accessToken: string;
  transactionId: string;
  /** How many proofs the deferred request carried: at most that many credentials come back. */
  keyCount: number;
  /** Encrypt as the credential request was (OID4VCI §9: the deferred endpoint follows the same rules). */
  encryption?: CredentialEncryption;
}

/**
 * Deferred Credential Request (OID4VCI §9): the credentials once issued (200); while the issuer
 * still needs time, a 202 throws DeferredIssuance again with the interval to wait. An unknown or
 * spent transaction_id throws OAuthError `invalid_transaction_id`, a declined one
 * `credential_request_denied`.
 */
export async function requestDeferredCredential(
  req: DeferredCredentialRequest,
  http: HttpOptions = {},
): Promise<CredentialResponse> {
  const res = await postCredentialMessage(
    'deferred credential',
    req.deferredCredentialEndpoint,
    req.accessToken,
    { transaction_id: req.transactionId },
    req.encryption,
    http,
  );
  const pending = deferredOf(res.status, res.body);
  if (pending) throw new DeferredIssuance(pending.transactionId, pending.interval);
  return credentialsOf(res.body, req.keyCount);
}

/**
 * Asks the deferred credential endpoint until the credentials come, waiting the issuer's interval
 * between requests, for at most `timeoutMs`; past it, the last DeferredIssuance is thrown, so the
 * caller can ask again later with its transaction_id (while its access token lives).
 */
export async function awaitDeferredCredential(
  req: DeferredCredentialRequest,
  first: DeferredIssuance,
  timeoutMs: number,
  http: HttpOptions = {},
): Promise<CredentialResponse> {
  const deadline = Date.now() + timeoutMs;
  let pending = first;
  for (;;) {
    const wait = pending.interval * 1000;
    if (Date.now() + wait > deadline) throw pending;
    await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      return await requestDeferredCredential({ ...req, transactionId: pending.transactionId }, http);
    } catch (e) {
      if (!(e instanceof DeferredIssuance)) throw e;
      pending = e;
    }
  }
}

/** The deferred credential endpoint of the issuer's metadata, or an error if it has none. */
export function deferredEndpointOf(issuer: { deferred_credential_endpoint?: unknown }): string {
  const endpoint = issuer.deferred_credential_endpoint;
  if (typeof endpoint !== 'string')
    throw new WalletError('the issuer deferred but names no deferred endpoint');
  return endpoint;
}
