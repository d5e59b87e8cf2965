import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * One login through /oauth2/authorize, keyed by the presentation session it started. It holds the
 * request's bindings (redirect_uri, state, nonce, PKCE challenge, the browser that started it), then
 * the authorization code (hashed, single-use) and the access token (hashed) it led to. The claims
 * stay in the presentation session; nothing personal is copied here.
 */
export const OidcAuthorization = defineEntity({
  name: 'OidcAuthorization',
  tableName: 'oidc_authorization',
  properties: {
    sessionId: p.string().primary(),
    clientId: p.string(),
    redirectUri: p.string(),
    state: p.string().nullable(),
    nonce: p.string(),
    codeChallenge: p.string(),
    /** SHA-256 of the secret in the cookie of the browser that started the login. */
    browserBindingHash: p.string(),
    createdAt: p.datetime(),
    completedAt: p.datetime().nullable(),
    authTime: p.datetime().nullable(),
    codeHash: p.string().nullable(),
    codeExpiresAt: p.datetime().nullable(),
    codeRedeemedAt: p.datetime().nullable(),
    accessTokenHash: p.string().nullable(),
    accessTokenExpiresAt: p.datetime().nullable(),
  },
});

export type OidcAuthorization = InferEntity<typeof OidcAuthorization>;
