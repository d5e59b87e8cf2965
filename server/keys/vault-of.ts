import { SettingError } from '../setting-error.js';
import type { KeyStoreKind, KeyVault, KeyVaults } from './key-vault.js';

/** The vault that holds a stored key; a key in a token the deployment is not configured for is an error at start. */
export function vaultOf(vaults: KeyVaults, kind: KeyStoreKind, what: string): KeyVault {
  const vault = vaults.byKind[kind];
  if (!vault)
    throw new SettingError(
      'KEY_STORE',
      `${what} is kept in a PKCS#11 token, but KEY_STORE is not pkcs11: set KEY_STORE=pkcs11 and the PKCS11_* settings`,
    );
  return vault;
}
