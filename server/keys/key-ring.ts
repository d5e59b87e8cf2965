import type { JWK } from 'jose';
import type { Es256Sign, KeyStoreKind, KeyVaults } from './key-vault.js';
import { materialOf } from './material-of.js';
import type { CertificateSource, KeyPurpose, SigningKey } from './signing-key.entity.js';
import { vaultOf } from './vault-of.js';

export interface RingKey {
  kid: string;
  purpose: KeyPurpose;
  status: SigningKey['status'];
  publicJwk: JWK;
  /** Where the private part is, and the function that signs with it there. */
  keyStore: KeyStoreKind;
  sign: Es256Sign;
  /** The `x5c` of the key (leaf first, no trust anchor); empty until it has a certificate. */
  chain: string[];
  certificateSource: CertificateSource | null;
  createdAt: Date;
}

/**
 * Every current signing key with its signing function (a software key decrypted once into a
 * non-exportable KeyObject, a token's key by reference) held in memory.
 * Signing, the active kid, the published JWKS and certificates are answered from here, so a
 * request never needs a database connection for them (one holding a transaction would otherwise
 * wait on a second connection). The ring is replaced as a whole when the table changes.
 */
export class KeyRing {
  readonly #byKid: Map<string, RingKey>;

  private constructor(keys: RingKey[]) {
    this.#byKid = new Map(keys.map((k) => [k.kid, k]));
  }

  static empty(): KeyRing {
    return new KeyRing([]);
  }

  /** Builds the ring from rows, reusing the signing functions (decrypted keys) of `previous`. */
  static from(rows: SigningKey[], vaults: KeyVaults, previous: KeyRing): KeyRing {
    return new KeyRing(
      rows
        .filter((r) => r.status !== 'retired')
        .map((r) => ({
          kid: r.kid,
          purpose: r.purpose,
          status: r.status,
          publicJwk: r.publicJwk as JWK,
          chain: r.certificateChain ?? (r.certificate ? [r.certificate] : []),
          certificateSource: r.certificateSource ?? null,
          createdAt: r.createdAt,
          keyStore: r.keyStore,
          sign:
            previous.#byKid.get(r.kid)?.sign ??
            vaultOf(vaults, r.keyStore, `signing key ${r.kid}`).signerOf(r.kid, materialOf(r)),
        })),
    );
  }

  get(kid: string, purpose: KeyPurpose): RingKey | undefined {
    const key = this.#byKid.get(kid);
    return key?.purpose === purpose ? key : undefined;
  }

  active(purpose: KeyPurpose): RingKey | undefined {
    return [...this.#byKid.values()].find((k) => k.purpose === purpose && k.status === 'active');
  }

  /** The active key first, then those retiring, newest first. */
  published(purpose: KeyPurpose): RingKey[] {
    return [...this.#byKid.values()]
      .filter((k) => k.purpose === purpose)
      .sort(
        (a, b) =>
          Number(b.status === 'active') - Number(a.status === 'active') || +b.createdAt - +a.createdAt,
      );
  }
}
