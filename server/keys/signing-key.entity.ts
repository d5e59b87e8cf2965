import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { KEY_STORE_KINDS } from '../../contract/admin/signing-key.js';
import type { TokenKey } from './key-vault.js';

/** `document-signer`: the mdoc Document Signer (ISO 18013-5 Annex B) that signs every MSO. */
export const KEY_PURPOSES = [
  'issuer',
  'document-signer',
  'status-list',
  'verifier',
  'oidc',
  'audit',
] as const;
export type KeyPurpose = (typeof KEY_PURPOSES)[number];
export const KEY_STATUSES = ['active', 'retiring', 'retired'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];
/** Who issued a key's certificate chain: the deployment's development CA, or a CA an operator used. */
export const CERTIFICATE_SOURCES = ['development', 'imported'] as const;
export type CertificateSource = (typeof CERTIFICATE_SOURCES)[number];

/**
 * An ES256 key. A software key's private part is stored only as AES-256-GCM ciphertext under
 * KEY_ENCRYPTION_KEY; a PKCS#11 key's never leaves the token, the row keeps its label and CKA_ID.
 */
export const SigningKey = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_key',
  properties: {
    kid: p.string().primary(),
    purpose: p.enum(KEY_PURPOSES),
    alg: p.string(),
    publicJwk: p.json<Record<string, string>>(),
    privateKeyEnc: p.text().nullable(),
    keyStore: p.enum(KEY_STORE_KINDS).default('local'),
    tokenKey: p.json<TokenKey>().nullable(),
    /** When a retired key's private part was destroyed (its row stays, for the record). */
    destroyedAt: p.datetime().nullable(),
    status: p.enum(KEY_STATUSES),
    createdAt: p.datetime().onCreate(() => new Date()),
    retiredAt: p.datetime().nullable(),
    /** Base64 DER of the key's leaf certificate (rows from before chains: self-signed, replaced at start). */
    certificate: p.text().nullable(),
    /** The `x5c` of the key: leaf first, then intermediates, never the trust anchor. */
    certificateChain: p.json<string[]>().nullable(),
    /** Null on rows from before chains, whose self-signed certificate is replaced at start. */
    certificateSource: p.enum(CERTIFICATE_SOURCES).nullable(),
  },
});

export type SigningKey = InferEntity<typeof SigningKey>;
