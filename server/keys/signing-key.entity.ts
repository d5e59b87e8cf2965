import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const KEY_PURPOSES = ['issuer', 'status-list', 'verifier', 'oidc', 'audit'] as const;
export type KeyPurpose = (typeof KEY_PURPOSES)[number];
export const KEY_STATUSES = ['active', 'retiring', 'retired'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** An ES256 key. The private part is stored only as AES-256-GCM ciphertext under KEY_ENCRYPTION_KEY. */
export const SigningKey = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_key',
  properties: {
    kid: p.string().primary(),
    purpose: p.enum(KEY_PURPOSES),
    alg: p.string(),
    publicJwk: p.json<Record<string, string>>(),
    privateKeyEnc: p.text(),
    status: p.enum(KEY_STATUSES),
    createdAt: p.datetime().onCreate(() => new Date()),
    retiredAt: p.datetime().nullable(),
    /** Base64 DER of a self-signed certificate for this key, made with it (older rows: at start). */
    certificate: p.text().nullable(),
  },
});

export type SigningKey = InferEntity<typeof SigningKey>;
