import type { z } from 'zod';
import type { KEY_STORE_KINDS, TokenKey as TokenKeySchema } from '../../contract/admin/signing-key.js';

/** Where a key's private part lives (contract/admin/signing-key.ts). */
export type KeyStoreKind = (typeof KEY_STORE_KINDS)[number];

/** How a token finds a key again: its CKA_LABEL and CKA_ID (hex). Not secret, not key material. */
export type TokenKey = z.infer<typeof TokenKeySchema>;

/** The public half of a P-256 key as a JWK. */
export interface P256Jwk extends Record<string, string> {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

/** ES256 over `data`: SHA-256, then ECDSA with P-256, the signature as IEEE P1363 r||s (64 bytes). */
export type Es256Sign = (data: Uint8Array) => Promise<Uint8Array>;

/** The columns that say where a key's private part is; exactly one of the two is set. */
export interface KeyMaterial {
  keyStore: KeyStoreKind;
  privateKeyEnc: string | null;
  tokenKey: TokenKey | null;
}

export interface GeneratedKey {
  publicJwk: P256Jwk;
  /** The storage columns once the key's id is known (a software key is sealed with it as AAD). */
  material(id: string): KeyMaterial;
}

/**
 * What differs between key stores, and nothing else: make a key pair, sign with one, destroy one.
 * Which keys exist, their states, chains and rotation are the KeyStore's, shared by every vault.
 */
export interface KeyVault {
  readonly kind: KeyStoreKind;
  /** A new P-256 key pair; `label` names it where the vault keeps names (a token's CKA_LABEL). */
  generate(label: string): Promise<GeneratedKey>;
  /** The signing function of a stored key. Cheap: a token's key is looked up when first used. */
  signerOf(id: string, material: KeyMaterial): Es256Sign;
  /**
   * Checks at start that the stored key is there and is the P-256 key `publicJwk` names; throws an
   * error that says what is wrong otherwise.
   */
  check(id: string, material: KeyMaterial, publicJwk: Record<string, string>): Promise<void>;
  /** Destroys the private part for good (C_DestroyObject in a token). */
  destroy(id: string, material: KeyMaterial): Promise<void>;
  /** Whether the vault can sign right now (a token that went away cannot until it is back). */
  up(): boolean;
}

/** Every vault the deployment can read keys from, and the one new keys are made in (KEY_STORE). */
export interface KeyVaults {
  configured: KeyVault;
  byKind: Partial<Record<KeyStoreKind, KeyVault>>;
}
