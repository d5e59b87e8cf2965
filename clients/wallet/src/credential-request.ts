import { type CredentialEncryption, encryptCredentialRequest } from './credential-encryption.js';
import { DeferredIssuance, WalletError } from './errors.js';
import { callEndpoint, type HttpOptions } from './http.js';

export interface CredentialRequest {
  credentialEndpoint: string;
  accessToken: string;
  /** Exactly one of the two (OID4VCI §8.2): the identifier when the token response gave some. */
  credentialConfigurationId?: string;
  credentialIdentifier?: string;
  /** One proof JWT per key; one credential per key comes back. */
  proofJwts: string[];
  /** Encrypt the request and ask for an encrypted response (OID4VCI §10); see credentialEncryptionOf. */
  encryption?: CredentialEncryption;
}

export interface CredentialResponse {
  credentials: string[];
  notificationId?: string;
}

/**
 * Credential request (OID4VCI §8.2) with `proofs: { jwt: [...] }`. A deferred answer (202 with
 * transaction_id and interval, §8.3) throws DeferredIssuance, which carries both: ask the deferred
 * credential endpoint with it (deferred-credential.ts). Request errors such as `invalid_proof` or
 * `invalid_nonce` throw OAuthError. With `encryption`, the request goes as a JWE and the response
 * (a deferred one too) must come as one (error responses stay plain JSON).
 */
export async function requestCredential(
  req: CredentialRequest,
  http: HttpOptions = {},
): Promise<CredentialResponse> {
  if ((req.credentialConfigurationId === undefined) === (req.credentialIdentifier === undefined))
    throw new WalletError('give exactly one of credentialConfigurationId and credentialIdentifier');
  const body = {
    ...(req.credentialIdentifier !== undefined
      ? { credential_identifier: req.credentialIdentifier }
      : { credential_configuration_id: req.credentialConfigurationId }),
    proofs: { jwt: req.proofJwts },
  };
  const res = await postCredentialMessage(
    'credential',
    req.credentialEndpoint,
    req.accessToken,
    body,
    req.encryption,
    http,
  );
  const pending = deferredOf(res.status, res.body);
  if (pending) throw new DeferredIssuance(pending.transactionId, pending.interval);
  return credentialsOf(res.body, req.proofJwts.length);
}

/** The transaction_id and interval of a deferred answer (202, OID4VCI §8.3), if it is one. */
export function deferredOf(status: number, body: Record<string, unknown> | undefined) {
  if (status !== 202 && body?.transaction_id === undefined) return undefined;
  const transactionId = body?.transaction_id;
  const interval = body?.interval;
  if (typeof transactionId !== 'string' || !transactionId)
    throw new WalletError('a deferred answer lacks its transaction_id');
  if (typeof interval !== 'number' || !(interval > 0))
    throw new WalletError('a deferred answer lacks a positive interval');
  return { transactionId, interval };
}

/** The credentials of a Credential Response (§8.3), for a request with `keyCount` proofs. */
export function credentialsOf(
  body: Record<string, unknown> | undefined,
  keyCount: number,
): CredentialResponse {
  const list = body?.credentials;
  if (!Array.isArray(list) || list.length === 0)
    throw new WalletError('credential response has no credentials');
  const credentials = list.map((c) => {
    const value = (c as { credential?: unknown } | null)?.credential;
    if (typeof value !== 'string') throw new WalletError('a credentials entry lacks a string credential');
    return value;
  });
  if (credentials.length > keyCount) throw new WalletError('more credentials than keys were returned');
  const notificationId = body?.notification_id;
  if (notificationId !== undefined && typeof notificationId !== 'string')
    throw new WalletError('notification_id is not a string');
  return { credentials, ...(notificationId !== undefined ? { notificationId } : {}) };
}

/**
 * POSTs a message to the credential or deferred credential endpoint with the access token: plain
 * JSON, or with `encryption` (§10) as a JWE asking for an encrypted response, which must then come
 * as one (error responses stay plain JSON) and is decrypted here.
 */
export async function postCredentialMessage(
  name: string,
  endpoint: string,
  accessToken: string,
  body: Record<string, unknown>,
  encryption: CredentialEncryption | undefined,
  http: HttpOptions,
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  const encrypted = encryption ? await encryptCredentialRequest(body, encryption) : undefined;
  const type = encrypted ? 'application/jwt' : 'application/json';
  const res = await callEndpoint(
    name,
    endpoint,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': type, accept: type },
      body: encrypted ? encrypted.jwe : JSON.stringify(body),
    },
    http,
  );
  if (encrypted && res.jwt === undefined)
    throw new WalletError(`the issuer answered an encrypted ${name} request in plain JSON`);
  if (!encrypted && res.jwt !== undefined)
    throw new WalletError('the issuer answered with an unasked-for JWT');
  if (encrypted && res.jwt !== undefined)
    return { status: res.status, body: await encrypted.decryptResponse(res.jwt) };
  return { status: res.status, body: res.body };
}
