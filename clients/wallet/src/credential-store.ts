import type { JWK } from 'jose';
import type { StatusReference } from './status-list.js';

/** The credential formats this wallet receives and presents (OID4VCI Appendix A, OID4VP Appendix B). */
export type CredentialFormat = 'dc+sd-jwt' | 'mso_mdoc';

/** What every stored credential has, whatever its format. */
interface StoredCredentialBase {
  id: string;
  /**
   * The credential as the Credential Response carried it: the SD-JWT VC with all its disclosures,
   * or the base64url CBOR IssuerSigned of an mdoc (OID4VCI Appendix A.2.4).
   */
  compact: string;
  /** The SD-JWT's `iss`; for an mdoc, which has none, the Credential Issuer it came from. */
  issuer: string;
  /** The HolderCrypto key it is bound to. */
  holderKeyId: string;
  statusReference?: StatusReference;
  receivedAt: Date;
}

/** An SD-JWT VC; `format` is absent in stores written before the wallet knew other formats. */
export interface StoredSdJwtVc extends StoredCredentialBase {
  format?: 'dc+sd-jwt';
  vct: string;
  claims: Record<string, unknown>;
}

/** An ISO mdoc: its doctype, its data elements by namespace (for showing and selecting), its device key. */
export interface StoredMdoc extends StoredCredentialBase {
  format: 'mso_mdoc';
  doctype: string;
  /** Namespace → data element identifier → value, JSON-safe (byte strings as base64url). */
  claims: Record<string, Record<string, unknown>>;
  /** The public key of `holderKeyId` as the MSO's deviceKeyInfo names it. */
  deviceKey: JWK;
}

/** A credential as the wallet keeps it: the credential itself plus what it needs to show and check it. */
export type StoredCredential = StoredSdJwtVc | StoredMdoc;

/** Stores written before mdocs have no `format`: those are SD-JWT VCs. */
export const formatOf = (credential: StoredCredential): CredentialFormat => credential.format ?? 'dc+sd-jwt';

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
