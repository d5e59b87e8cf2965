import type { StatusReference } from './status-list.js';

/** A credential as the wallet keeps it: the SD-JWT VC itself plus what it needs to show and check it. */
export interface StoredCredential {
  id: string;
  /** The SD-JWT VC as issued, with all disclosures. */
  compact: string;
  issuer: string;
  vct: string;
  claims: Record<string, unknown>;
  /** The HolderCrypto key it is bound to. */
  holderKeyId: string;
  statusReference?: StatusReference;
  receivedAt: Date;
}

/** Where received credentials are kept; a mobile app would put them in its secure storage. */
export interface CredentialStore {
  save(credential: StoredCredential): Promise<void>;
  get(id: string): Promise<StoredCredential | undefined>;
  list(): Promise<StoredCredential[]>;
  delete(id: string): Promise<void>;
}

export function inMemoryCredentialStore(): CredentialStore {
  const items = new Map<string, StoredCredential>();
  return {
    async save(c) {
      items.set(c.id, c);
    },
    async get(id) {
      return items.get(id);
    },
    async list() {
      return [...items.values()];
    },
    async delete(id) {
      items.delete(id);
    },
  };
}
