import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * One token grant's refresh tokens (RFC 6749 section 6): the issuance they refresh, a copy of its
 * credential payload (the issuance erases its own at issuance), what the grant was bound to (DPoP
 * key, attested wallet) and the SCIM user it was for. Deleting a family ends its refresh tokens and
 * the access tokens they gave.
 */
export const Oid4vciRefreshFamily = defineEntity({
  name: 'Oid4vciRefreshFamily',
  tableName: 'oid4vci_refresh_family',
  properties: {
    id: p.string().primary(),
    issuanceId: p.string(),
    tenantId: p.string(),
    payload: p.json<Record<string, unknown>>(),
    dpopJkt: p.string().nullable(),
    clientId: p.string().nullable(),
    scimUserId: p.uuid().nullable(),
    createdAt: p.datetime(),
    /** Fixed at the grant: rotation never extends it (HAIP 1.0 section 4.4 note). */
    expiresAt: p.datetime(),
  },
});
export type Oid4vciRefreshFamily = InferEntity<typeof Oid4vciRefreshFamily>;

/** A refresh token of a family, as its SHA-256; `usedAt` set once it was exchanged (rotated). */
export const Oid4vciRefreshToken = defineEntity({
  name: 'Oid4vciRefreshToken',
  tableName: 'oid4vci_refresh_token',
  properties: {
    tokenHash: p.string().primary(),
    familyId: p.string(),
    createdAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type Oid4vciRefreshToken = InferEntity<typeof Oid4vciRefreshToken>;
