import { z } from 'zod';

/** Credential request and response encryption; part of the service's configuration (server/config.ts, README). */
export const CredentialEncryptionEnv = z.object({
  /**
   * `true`: every credential request must be encrypted and ask for an encrypted response (OID4VCI
   * 1.0 section 10), and the issuer metadata says `encryption_required: true`. `false` (default):
   * wallets choose, unless the issuance's tenant sets `encryption_required`.
   */
  CREDENTIAL_ENCRYPTION_REQUIRED: z.enum(['true', 'false']).default('false'),
});
