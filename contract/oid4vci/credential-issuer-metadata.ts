import { z } from 'zod';
import {
  CredentialRequestEncryptionMetadata,
  CredentialResponseEncryptionMetadata,
} from './credential-encryption.js';
import { IssuerInfo } from './issuer-info.js';
import { KeyAttestationsRequired } from './key-attestations-required.js';

const Display = z
  .object({ name: z.string(), locale: z.string().optional(), description: z.string().optional() })
  .passthrough();

/** The members every format's configuration has (OID4VCI 1.0 section 12.2.4). */
const ConfigurationMembers = {
  scope: z.string().optional(),
  cryptographic_binding_methods_supported: z.array(z.string()),
  proof_types_supported: z.record(
    z.object({
      proof_signing_alg_values_supported: z.array(z.string()),
      key_attestations_required: KeyAttestationsRequired.optional(),
    }),
  ),
  credential_metadata: z
    .object({ display: z.array(Display), claims: z.array(z.unknown()) })
    .partial()
    .optional(),
};

/** Appendix A.3.2: an IETF SD-JWT VC configuration, named by its `vct`; JOSE algorithm names. */
export const SdJwtVcConfiguration = z
  .object({
    format: z.literal('dc+sd-jwt'),
    vct: z.string(),
    credential_signing_alg_values_supported: z.array(z.string()),
    ...ConfigurationMembers,
  })
  .passthrough();

/** Appendix A.2.2: an ISO mdoc configuration, named by its `doctype`; COSE algorithm numbers. */
export const MsoMdocConfiguration = z
  .object({
    format: z.literal('mso_mdoc'),
    doctype: z.string(),
    credential_signing_alg_values_supported: z.array(z.number().int()),
    ...ConfigurationMembers,
  })
  .passthrough();

export const CredentialConfigurationSupported = z.union([SdJwtVcConfiguration, MsoMdocConfiguration]);
export type CredentialConfigurationSupported = z.infer<typeof CredentialConfigurationSupported>;

/** OID4VCI 1.0 section 12.2.4: what this issuer offers and where its endpoints are. */
export const CredentialIssuerMetadata = z
  .object({
    credential_issuer: z.string().url(),
    credential_endpoint: z.string().url(),
    nonce_endpoint: z.string().url(),
    notification_endpoint: z.string().url(),
    credential_request_encryption: CredentialRequestEncryptionMetadata.optional(),
    credential_response_encryption: CredentialResponseEncryptionMetadata.optional(),
    deferred_credential_endpoint: z.string().url().optional(),
    batch_credential_issuance: z.object({ batch_size: z.number().int().min(2) }).optional(),
    display: z.array(Display).optional(),
    credential_configurations_supported: z.record(CredentialConfigurationSupported),
    issuer_info: IssuerInfo.optional(),
  })
  .passthrough();

/**
 * RFC 8414 metadata of the one authorization server at this origin, the same document as
 * `/.well-known/openid-configuration`: the issuer's (pre-authorized code), the verifier's OpenID
 * provider (authorization code), or both when they share a URL. Other OpenID Connect Discovery
 * members pass through.
 */
export const AuthorizationServerMetadata = z
  .object({
    issuer: z.string().url(),
    token_endpoint: z.string().url(),
    grant_types_supported: z.array(z.string()).min(1),
    token_endpoint_auth_methods_supported: z.array(z.string()).min(1),
    authorization_endpoint: z.string().url().optional(),
    jwks_uri: z.string().url().optional(),
    response_types_supported: z.array(z.string()).optional(),
    'pre-authorized_grant_anonymous_access_supported': z.boolean().optional(),
    dpop_signing_alg_values_supported: z.array(z.string()).optional(),
  })
  .passthrough();

/** SD-JWT VC section 5: the keys credentials of this issuer are signed with. */
export const JwtVcIssuerMetadata = z.object({
  issuer: z.string().url(),
  jwks: z.object({ keys: z.array(z.record(z.unknown())) }),
});
