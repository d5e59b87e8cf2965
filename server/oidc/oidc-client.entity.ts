import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TOKEN_ENDPOINT_AUTH_METHODS } from '../../contract/oidc/oidc-client.js';

export type ClaimPath = (string | number | null)[];

/**
 * A relying party of a tenant: where its users may be sent back, how it authenticates at the token
 * endpoint (a secret kept only as SHA-256, or its public keys), which credential its login asks for
 * and which ID token claims are read from that credential.
 */
export const OidcClient = defineEntity({
  name: 'OidcClient',
  tableName: 'oidc_client',
  properties: {
    id: p.string().primary(),
    tenantId: p.string(),
    name: p.string().nullable(),
    redirectUris: p.json<string[]>(),
    tokenEndpointAuthMethod: p.enum(TOKEN_ENDPOINT_AUTH_METHODS),
    secretHash: p.string().nullable(),
    jwks: p.json<{ keys: Record<string, unknown>[] }>().nullable(),
    credentialConfigurationId: p.string(),
    claimsMapping: p.json<Record<string, ClaimPath>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type OidcClient = InferEntity<typeof OidcClient>;
