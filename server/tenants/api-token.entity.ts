import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const TOKEN_KINDS = ['integrator', 'scim'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
export const TOKEN_SCOPES = ['full', 'read'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A bearer token of a tenant. Only the SHA-256 of its secret part is kept; the token is shown once. */
export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'api_token',
  properties: {
    id: p.uuid().primary(),
    tenantId: p.string(),
    kind: p.enum(TOKEN_KINDS),
    /** `read`: GET requests only (an auditor's console session, a reporting job). */
    scope: p.enum(TOKEN_SCOPES),
    secretHash: p.string(),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type ApiToken = InferEntity<typeof ApiToken>;
