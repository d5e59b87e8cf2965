import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An access token of the token endpoint, bound to one issuance; only its SHA-256 is stored. A
 * DPoP-bound token (RFC 9449) also keeps the JWK SHA-256 thumbprint of the wallet's DPoP key.
 */
export const Oid4vciAccessToken = defineEntity({
  name: 'Oid4vciAccessToken',
  tableName: 'oid4vci_access_token',
  properties: {
    tokenHash: p.string().primary(),
    issuanceId: p.string(),
    expiresAt: p.datetime(),
    dpopJkt: p.string().nullable(),
    /** The refresh family that gave this token (null: the code grant); it goes with the family. */
    refreshFamilyId: p.string().nullable(),
    /** When a refreshed token got its one credential response. */
    spentAt: p.datetime().nullable(),
  },
});
export type Oid4vciAccessToken = InferEntity<typeof Oid4vciAccessToken>;

/** A c_nonce of the nonce endpoint: deleted when used, so it is good for one credential request. */
export const Oid4vciNonce = defineEntity({
  name: 'Oid4vciNonce',
  tableName: 'oid4vci_nonce',
  properties: {
    nonceHash: p.string().primary(),
    expiresAt: p.datetime(),
  },
});
export type Oid4vciNonce = InferEntity<typeof Oid4vciNonce>;
