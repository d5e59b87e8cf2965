import {
  CREDENTIAL_ENCRYPTION_ALGS,
  CREDENTIAL_ENCRYPTION_ENCS,
} from '../../../contract/oid4vci/credential-encryption.js';
import type { Config } from '../../config.js';
import { requestDecryptionKey } from './request-decryption-key.js';

/**
 * OID4VCI 1.0 section 12.2.4 `credential_request_encryption` and `credential_response_encryption`.
 * `encryption_required` is the deployment's (CREDENTIAL_ENCRYPTION_REQUIRED): the metadata is one
 * document for every tenant, so a tenant that requires encryption on its own is not announced here;
 * its wallets learn it from the `invalid_encryption_parameters` error. No compression: jose does
 * not implement `zip`, and compressing before encrypting leaks lengths for little gain.
 */
export function encryptionMetadata(config: Config) {
  const required = config.CREDENTIAL_ENCRYPTION_REQUIRED === 'true';
  return {
    credential_request_encryption: {
      jwks: { keys: [requestDecryptionKey(config).publicJwk] },
      enc_values_supported: [...CREDENTIAL_ENCRYPTION_ENCS],
      encryption_required: required,
    },
    credential_response_encryption: {
      alg_values_supported: [...CREDENTIAL_ENCRYPTION_ALGS],
      enc_values_supported: [...CREDENTIAL_ENCRYPTION_ENCS],
      encryption_required: required,
    },
  };
}
