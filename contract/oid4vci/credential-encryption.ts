import { z } from 'zod';

/**
 * OID4VCI 1.0 section 10 (Encrypted Credential Requests and Responses): JWE with ECDH-ES on P-256,
 * the content encryption algorithms below; no compression (`zip`), so none is advertised.
 */
export const CREDENTIAL_ENCRYPTION_ALGS = ['ECDH-ES'] as const;
export const CREDENTIAL_ENCRYPTION_ENCS = ['A128GCM', 'A256GCM'] as const;

/** Section 12.2.4 `credential_request_encryption`: the issuer's key a wallet encrypts requests to. */
export const CredentialRequestEncryptionMetadata = z
  .object({
    jwks: z.object({ keys: z.array(z.record(z.unknown())).min(1) }),
    enc_values_supported: z.array(z.string()).min(1),
    zip_values_supported: z.array(z.string()).min(1).optional(),
    encryption_required: z.boolean(),
  })
  .passthrough();

/** Section 12.2.4 `credential_response_encryption`: what a wallet may ask responses to be encrypted with. */
export const CredentialResponseEncryptionMetadata = z
  .object({
    alg_values_supported: z.array(z.string()).min(1),
    enc_values_supported: z.array(z.string()).min(1),
    zip_values_supported: z.array(z.string()).min(1).optional(),
    encryption_required: z.boolean(),
  })
  .passthrough();

/**
 * Section 8.2 `credential_response_encryption` of a credential request: the wallet's public key
 * (`jwk`) and `enc` (and `zip`) for the response. A bad one, in shape or in content, is answered
 * `invalid_encryption_parameters` as section 8.3.1.2 asks.
 */
export const CredentialResponseEncryption = z
  .object({
    jwk: z.record(z.unknown()).describe('The wallet’s public EC P-256 key (alg ECDH-ES, or no alg)'),
    enc: z.string().describe('One of credential_response_encryption.enc_values_supported'),
    zip: z.string().optional().describe('Not supported by this issuer'),
  })
  .passthrough();

/** Section 10: an encrypted credential request or response, as `application/jwt`. */
export const EncryptedCredentialMessage = z
  .string()
  .regex(/^[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){4}$/)
  .describe(
    'A compact JWE (alg ECDH-ES, an advertised enc, the key’s kid) of the JSON message: a request to the key in ' +
      'credential_request_encryption.jwks, a response to the credential_response_encryption.jwk of the request',
  );
