import { type CredentialEncryption, encryptCredentialRequest } from './credential-encryption.js';
import { WalletError } from './errors.js';
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
 * Credential request (OID4VCI §8.2) with `proofs: { jwt: [...] }`. Only immediate issuance is
 * supported: a deferred answer (202 with transaction_id) is reported as an error. Request errors
 * such as `invalid_proof` or `invalid_nonce` throw OAuthError. With `encryption`, the request goes
 * as a JWE and the response must come as one (error responses stay plain JSON).
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
  const encrypted = req.encryption ? await encryptCredentialRequest(body, req.encryption) : undefined;
  const type = encrypted ? 'application/jwt' : 'application/json';
  const res = await callEndpoint(
    'credential',
    req.credentialEndpoint,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${req.accessToken}`, 'content-type': type, accept: type },
      body: encrypted ? encrypted.jwe : JSON.stringify(body),
    },
    http,
  );
  if (encrypted && res.jwt === undefined)
    throw new WalletError('the issuer answered an encrypted credential request in plain JSON');
  if (!encrypted && res.jwt !== undefined)
    throw new WalletError('the issuer answered with an unasked-for JWT');
  if (encrypted && res.jwt !== undefined) res.body = await encrypted.decryptResponse(res.jwt);
  if (res.status === 202 || res.body?.transaction_id !== undefined)
    throw new WalletError('the issuer deferred issuance, which this wallet does not support');
  const list = res.body?.credentials;
  if (!Array.isArray(list) || list.length === 0)
    throw new WalletError('credential response has no credentials');
  const credentials = list.map((c) => {
    const value = (c as { credential?: unknown } | null)?.credential;
    if (typeof value !== 'string') throw new WalletError('a credentials entry lacks a string credential');
    return value;
  });
  if (credentials.length > req.proofJwts.length)
    throw new WalletError('more credentials than keys were returned');
  const notificationId = res.body?.notification_id;
  if (notificationId !== undefined && typeof notificationId !== 'string')
    throw new WalletError('notification_id is not a string');
  return { credentials, ...(notificationId !== undefined ? { notificationId } : {}) };
}
