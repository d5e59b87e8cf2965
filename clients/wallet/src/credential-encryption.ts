import { CompactEncrypt, compactDecrypt, exportJWK, generateKeyPair, type JWK } from 'jose';
import { WalletError } from './errors.js';
import type { CredentialIssuerMetadata } from './issuer-metadata.js';

/** What this wallet encrypts with: ECDH-ES on P-256 and the AES-GCM content encryptions. */
const ENCS = ['A256GCM', 'A128GCM'];

/**
 * How to encrypt a credential request and ask for an encrypted response (OID4VCI §10): the issuer's
 * key from `credential_request_encryption.jwks`, the request's `enc`, and the response's `enc`.
 */
export interface CredentialEncryption {
  issuerKey: JWK;
  requestEnc: string;
  responseEnc: string;
}

interface EncryptionMetadata {
  jwks?: { keys?: JWK[] };
  alg_values_supported?: string[];
  enc_values_supported?: string[];
  encryption_required?: boolean;
}

const pickEnc = (offered: unknown) =>
  Array.isArray(offered) ? ENCS.find((e) => offered.includes(e)) : undefined;

/**
 * The encryption to use with this issuer, when it offers both request and response encryption in a
 * form we speak (§12.2.4); undefined otherwise, or when `wanted` is false and the issuer does not
 * require it. An issuer that requires what we cannot do is an error, not a silent plain request.
 */
export function credentialEncryptionOf(
  issuer: CredentialIssuerMetadata,
  wanted = true,
): CredentialEncryption | undefined {
  const request = issuer.credential_request_encryption as EncryptionMetadata | undefined;
  const response = issuer.credential_response_encryption as EncryptionMetadata | undefined;
  const required = request?.encryption_required === true || response?.encryption_required === true;
  if (!wanted && !required) return undefined;
  const issuerKey = request?.jwks?.keys?.find(
    (k) => k.kty === 'EC' && k.crv === 'P-256' && k.alg === 'ECDH-ES' && (k.use ?? 'enc') === 'enc',
  );
  const requestEnc = pickEnc(request?.enc_values_supported);
  const responseEnc = response?.alg_values_supported?.includes('ECDH-ES')
    ? pickEnc(response.enc_values_supported)
    : undefined;
  if (issuerKey && requestEnc && responseEnc) return { issuerKey, requestEnc, responseEnc };
  if (required) throw new WalletError('the issuer requires credential encryption this wallet cannot do');
  return undefined;
}

/** An encrypted credential request, and how to open its response (with the ephemeral key it names). */
export interface EncryptedCredentialRequest {
  jwe: string;
  decryptResponse(jwe: string): Promise<Record<string, unknown>>;
}

/**
 * §8.2 and §10: adds `credential_response_encryption` with a fresh ECDH-ES key (one per request, so
 * that no response key outlives its request) and encrypts the whole request to the issuer's key,
 * naming its kid.
 */
export async function encryptCredentialRequest(
  body: Record<string, unknown>,
  how: CredentialEncryption,
): Promise<EncryptedCredentialRequest> {
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256' });
  const jwk = { ...(await exportJWK(publicKey)), alg: 'ECDH-ES', use: 'enc', kid: crypto.randomUUID() };
  const request = { ...body, credential_response_encryption: { jwk, enc: how.responseEnc } };
  const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(request)))
    .setProtectedHeader({
      alg: 'ECDH-ES',
      enc: how.requestEnc,
      ...(how.issuerKey.kid ? { kid: how.issuerKey.kid } : {}),
    })
    .encrypt(how.issuerKey);
  const decryptResponse = async (response: string) => {
    let plaintext: Uint8Array;
    try {
      ({ plaintext } = await compactDecrypt(response, privateKey, {
        keyManagementAlgorithms: ['ECDH-ES'],
        contentEncryptionAlgorithms: [how.responseEnc],
      }));
    } catch (e) {
      throw new WalletError(`the encrypted credential response does not decrypt: ${(e as Error).message}`);
    }
    const parsed = JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new WalletError('the decrypted credential response is not a JSON object');
    return parsed as Record<string, unknown>;
  };
  return { jwe, decryptResponse };
}
