import type { Orm } from '../persistence/orm.js';
import type { KeyEncryption } from './key-encryption.js';
import { KeyStore, type KeyStoreOptions } from './key-store.js';
import { SoftwareKeyVault } from './software-key-vault.js';

export type LocalKeyStoreOptions = KeyStoreOptions;

/** KEY_STORE=local: the KeyStore with software keys sealed under KEY_ENCRYPTION_KEY and nothing else. */
export class LocalKeyStore extends KeyStore {
  constructor(orm: Orm, encryption: KeyEncryption, options: LocalKeyStoreOptions = {}) {
    const vault = new SoftwareKeyVault(encryption);
    super(orm, { configured: vault, byKind: { local: vault } }, options);
  }
}
