import { z } from 'zod';

/** Wallet attestation as client authentication; part of the service's configuration (README). */
export const ClientAttestationEnv = z.object({
  /**
   * A PEM file of the root certificates of the wallet providers the operator trusts: a client
   * attestation's `x5c` chain must end in one of them or in a wallet provider a trust source lists
   * (walletProviderTrust). Unset and no such source: no attestation is accepted.
   */
  WALLET_PROVIDER_TRUST_ANCHORS: z.string().min(1).optional(),
  /**
   * `true`: the token endpoint refuses token requests without a valid wallet attestation
   * (`attest_jwt_client_auth`), as HAIP asks. `false` (default): an attestation is checked when a
   * wallet sends one, and the pre-authorized code grant stays open to anonymous wallets.
   */
  WALLET_ATTESTATION_REQUIRED: z.enum(['true', 'false']).default('false'),
});
