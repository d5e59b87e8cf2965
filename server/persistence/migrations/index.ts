import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_foundation } from './Migration20261122000000_foundation.js';
import { Migration20261122000100_status_lists } from './Migration20261122000100_status_lists.js';
import { Migration20261122000200_issuance } from './Migration20261122000200_issuance.js';
import { Migration20261122000300_directory } from './Migration20261122000300_directory.js';
import { Migration20261122000400_verification } from './Migration20261122000400_verification.js';
import { Migration20261122000500_oidc } from './Migration20261122000500_oidc.js';
import { Migration20261122000600_audit_head } from './Migration20261122000600_audit_head.js';
import { Migration20261123000100_audit_sealing } from './Migration20261123000100_audit_sealing.js';
import { Migration20261123000200_scim_group_unique } from './Migration20261123000200_scim_group_unique.js';
import { Migration20261123000210_scim_user_credential } from './Migration20261123000210_scim_user_credential.js';
import { Migration20261123000300_offer_lifetimes } from './Migration20261123000300_offer_lifetimes.js';
import { Migration20261123000400_tenant_branding } from './Migration20261123000400_tenant_branding.js';
import { Migration20261123000600_status_and_counts } from './Migration20261123000600_status_and_counts.js';
import { Migration20261123000700_x509_chains } from './Migration20261123000700_x509_chains.js';
import { Migration20261123000800_webhooks_idempotency } from './Migration20261123000800_webhooks_idempotency.js';
import { Migration20261123000900_trust_anchors } from './Migration20261123000900_trust_anchors.js';
import { Migration20261123001000_dpop } from './Migration20261123001000_dpop.js';
import { Migration20261123001100_same_device } from './Migration20261123001100_same_device.js';
import { Migration20261123001200_authorization_code } from './Migration20261123001200_authorization_code.js';
import { Migration20261124000100_holder_sign_in } from './Migration20261124000100_holder_sign_in.js';
import { Migration20261124000200_refresh_tokens } from './Migration20261124000200_refresh_tokens.js';
import { Migration20261124000300_key_attestation } from './Migration20261124000300_key_attestation.js';
import { Migration20261124000400_dc_api } from './Migration20261124000400_dc_api.js';
import { Migration20261124000500_haip_profile } from './Migration20261124000500_haip_profile.js';
import { Migration20261125000100_scim_list_changes } from './Migration20261125000100_scim_list_changes.js';
import { Migration20261126000100_awaiting_redirect } from './Migration20261126000100_awaiting_redirect.js';
import { Migration20261126000200_mdoc_configurations } from './Migration20261126000200_mdoc_configurations.js';
import { Migration20261126000500_trusted_issuer_keys } from './Migration20261126000500_trusted_issuer_keys.js';
import { Migration20261126000900_annex_c } from './Migration20261126000900_annex_c.js';
import { Migration20261127000100_registration_certificates } from './Migration20261127000100_registration_certificates.js';
import { Migration20261127000200_trust_sources } from './Migration20261127000200_trust_sources.js';
import { Migration20261127000300_approvals } from './Migration20261127000300_approvals.js';
import { Migration20261127000400_transaction_data_types } from './Migration20261127000400_transaction_data_types.js';
import { Migration20261127000500_credential_encryption } from './Migration20261127000500_credential_encryption.js';
import { Migration20261127000600_deferred_issuance } from './Migration20261127000600_deferred_issuance.js';
import { Migration20261128000100_companion_credentials } from './Migration20261128000100_companion_credentials.js';
import { Migration20261128001000_key_stores } from './Migration20261128001000_key_stores.js';
import { Migration20261128002000_holder_sign_in_presentation } from './Migration20261128002000_holder_sign_in_presentation.js';
import { Migration20261128003000_provisioning_approval } from './Migration20261128003000_provisioning_approval.js';
import { Migration20261128004100_console } from './Migration20261128004100_console.js';

/** Every migration, in order. Listed explicitly so that they run the same from source and from a bundle. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261122000100_status_lists', class: Migration20261122000100_status_lists },
  { name: 'Migration20261122000200_issuance', class: Migration20261122000200_issuance },
  { name: 'Migration20261122000300_directory', class: Migration20261122000300_directory },
  { name: 'Migration20261122000400_verification', class: Migration20261122000400_verification },
  { name: 'Migration20261122000500_oidc', class: Migration20261122000500_oidc },
  { name: 'Migration20261122000600_audit_head', class: Migration20261122000600_audit_head },
  { name: 'Migration20261123000100_audit_sealing', class: Migration20261123000100_audit_sealing },
  { name: 'Migration20261123000200_scim_group_unique', class: Migration20261123000200_scim_group_unique },
  {
    name: 'Migration20261123000210_scim_user_credential',
    class: Migration20261123000210_scim_user_credential,
  },
  { name: 'Migration20261123000300_offer_lifetimes', class: Migration20261123000300_offer_lifetimes },
  { name: 'Migration20261123000400_tenant_branding', class: Migration20261123000400_tenant_branding },
  { name: 'Migration20261123000600_status_and_counts', class: Migration20261123000600_status_and_counts },
  { name: 'Migration20261123000700_x509_chains', class: Migration20261123000700_x509_chains },
  {
    name: 'Migration20261123000800_webhooks_idempotency',
    class: Migration20261123000800_webhooks_idempotency,
  },
  { name: 'Migration20261123000900_trust_anchors', class: Migration20261123000900_trust_anchors },
  { name: 'Migration20261123001000_dpop', class: Migration20261123001000_dpop },
  { name: 'Migration20261123001100_same_device', class: Migration20261123001100_same_device },
  {
    name: 'Migration20261123001200_authorization_code',
    class: Migration20261123001200_authorization_code,
  },
  { name: 'Migration20261124000100_holder_sign_in', class: Migration20261124000100_holder_sign_in },
  { name: 'Migration20261124000200_refresh_tokens', class: Migration20261124000200_refresh_tokens },
  { name: 'Migration20261124000300_key_attestation', class: Migration20261124000300_key_attestation },
  { name: 'Migration20261124000400_dc_api', class: Migration20261124000400_dc_api },
  { name: 'Migration20261124000500_haip_profile', class: Migration20261124000500_haip_profile },
  { name: 'Migration20261125000100_scim_list_changes', class: Migration20261125000100_scim_list_changes },
  { name: 'Migration20261126000100_awaiting_redirect', class: Migration20261126000100_awaiting_redirect },
  { name: 'Migration20261126000200_mdoc_configurations', class: Migration20261126000200_mdoc_configurations },
  {
    name: 'Migration20261126000500_trusted_issuer_keys',
    class: Migration20261126000500_trusted_issuer_keys,
  },
  { name: 'Migration20261126000900_annex_c', class: Migration20261126000900_annex_c },
  {
    name: 'Migration20261127000100_registration_certificates',
    class: Migration20261127000100_registration_certificates,
  },
  { name: 'Migration20261127000200_trust_sources', class: Migration20261127000200_trust_sources },
  { name: 'Migration20261127000300_approvals', class: Migration20261127000300_approvals },
  {
    name: 'Migration20261127000400_transaction_data_types',
    class: Migration20261127000400_transaction_data_types,
  },
  {
    name: 'Migration20261127000500_credential_encryption',
    class: Migration20261127000500_credential_encryption,
  },
  { name: 'Migration20261127000600_deferred_issuance', class: Migration20261127000600_deferred_issuance },
  {
    name: 'Migration20261128000100_companion_credentials',
    class: Migration20261128000100_companion_credentials,
  },
  { name: 'Migration20261128001000_key_stores', class: Migration20261128001000_key_stores },
  {
    name: 'Migration20261128002000_holder_sign_in_presentation',
    class: Migration20261128002000_holder_sign_in_presentation,
  },
  {
    name: 'Migration20261128003000_provisioning_approval',
    class: Migration20261128003000_provisioning_approval,
  },
  { name: 'Migration20261128004100_console', class: Migration20261128004100_console },
];
