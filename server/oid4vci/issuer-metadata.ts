import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { listConfigurations } from '../credential-configurations/credential-configuration-registry.js';
import { issuingFormat } from '../formats/credential-formats.js';
import { issuerInfoOf } from '../registration/registration-certificates.js';
import { trustsWalletProviders } from '../trust/wallet-provider-trust.js';
import { encryptionMetadata } from './encryption/encryption-metadata.js';
import { walletSecurity } from './wallet-security.js';

export const oid4vciEndpoints = (issuerUrl: string) => ({
  nonce: `${issuerUrl}/oid4vci/v1/nonce`,
  credential: `${issuerUrl}/oid4vci/v1/credential`,
  notification: `${issuerUrl}/oid4vci/v1/notification`,
  deferredCredential: `${issuerUrl}/oid4vci/v1/deferred_credential`,
});

/**
 * The OAuth scope that asks for a configuration (OID4VCI section 5.1.2): its id, which the contract
 * limits to scope-token characters. HAIP: every configuration in the metadata has one.
 */
export const credentialScope = (configurationId: string) => configurationId;

/**
 * OID4VCI 1.0 section 12.2.4 metadata, built from the registered credential configurations, with
 * the issuer's registration certificate as `issuer_info` (ETSI TS 119 472-3) once one is imported,
 * and the keys and algorithms of encrypted credential requests and responses (section 10).
 * The signed form (signed-metadata.ts) carries the same members.
 */
export async function credentialIssuerMetadata(em: EntityManager, config: Config) {
  const endpoints = oid4vciEndpoints(config.issuerUrl);
  const configurations = await listConfigurations(em);
  const issuerInfo = await issuerInfoOf(em);
  const attestationsVerifiable = trustsWalletProviders(await walletSecurity(config).walletProviders(em));
  return {
    credential_issuer: config.issuerUrl,
    credential_endpoint: endpoints.credential,
    nonce_endpoint: endpoints.nonce,
    notification_endpoint: endpoints.notification,
    ...encryptionMetadata(config),
    deferred_credential_endpoint: endpoints.deferredCredential,
    ...(config.BATCH_SIZE > 1 ? { batch_credential_issuance: { batch_size: config.BATCH_SIZE } } : {}),
    display: [{ name: config.ISSUER_NAME, locale: 'en' }],
    credential_configurations_supported: Object.fromEntries(
      configurations.map((c) => [
        c.id,
        issuingFormat(c).describeConfiguration(c, config.issuerUrl, {
          scope: credentialScope(c.id),
          proof_types_supported: proofTypesSupported(c, attestationsVerifiable),
        }),
      ]),
    ),
    ...(issuerInfo ? { issuer_info: issuerInfo } : {}),
  };
}

/**
 * Section 12.2.4 `proof_types_supported`: `jwt` key proofs (a key attestation in their header
 * welcome), and, once the deployment trusts a wallet provider (WALLET_PROVIDER_TRUST_ANCHORS or a
 * trust source's wallet_provider entry) so that one can verify, the `attestation` proof type (HAIP
 * asks issuers for both); ES256 only. A configuration's `key_attestations_required` goes with each.
 */
function proofTypesSupported(
  c: Pick<CredentialConfiguration, 'keyAttestationsRequired'>,
  attestationsVerifiable: boolean,
) {
  const proofType = {
    proof_signing_alg_values_supported: ['ES256'],
    ...(c.keyAttestationsRequired ? { key_attestations_required: c.keyAttestationsRequired } : {}),
  };
  return { jwt: proofType, ...(attestationsVerifiable ? { attestation: proofType } : {}) };
}
