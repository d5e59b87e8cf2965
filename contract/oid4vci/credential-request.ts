import { z } from 'zod';
import { CredentialResponseEncryption } from './credential-encryption.js';

/**
 * OID4VCI 1.0 section 8.2. `proofs` holds one proof type: `jwt` key proofs, or `attestation`, one
 * key attestation (appendix D; its length is checked by the endpoint, as invalid_proof). `proof`
 * (singular) is from drafts and is refused with a clear error. The request may come encrypted, as a
 * compact JWE of this JSON (`application/jwt`, section 10); asking for an encrypted response needs
 * an encrypted request.
 */
export const CredentialRequest = z
  .object({
    credential_configuration_id: z.string().optional(),
    credential_identifier: z.string().optional(),
    proofs: z
      .object({
        jwt: z.array(z.string()).min(1).optional(),
        attestation: z.array(z.string()).optional(),
      })
      .passthrough()
      .optional(),
    proof: z.unknown().optional(),
    credential_response_encryption: CredentialResponseEncryption.optional(),
  })
  .passthrough();

/** OID4VCI 1.0 section 8.3. */
export const CredentialResponse = z.object({
  credentials: z.array(z.object({ credential: z.string() })).min(1),
  notification_id: z.string().optional(),
});

/** OID4VCI 1.0 section 8.3: issuance deferred; the wallet asks the deferred credential endpoint, no sooner than `interval` seconds. */
export const DeferredCredentialPending = z.object({
  transaction_id: z.string(),
  interval: z.number().int().min(1).describe('Seconds to wait before asking again'),
});

/** OID4VCI 1.0 section 9.1. */
export const DeferredCredentialRequest = z
  .object({
    transaction_id: z.string().min(1).max(200),
    credential_response_encryption: z.unknown().optional(),
  })
  .passthrough();
