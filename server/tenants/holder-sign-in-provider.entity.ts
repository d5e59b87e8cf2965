import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * The tenant's own OpenID provider, at which its holders sign in to receive a credential by the
 * authorization code flow. The client secret is sealed (holder-sign-in-provider.ts), never returned.
 */
export const HolderSignInProvider = defineEntity({
  name: 'HolderSignInProvider',
  tableName: 'holder_sign_in_provider',
  properties: {
    tenantId: p.string().primary(),
    issuer: p.string(),
    clientId: p.string(),
    clientSecretSealed: p.string(),
    /** The ID token claim with the holder's e-mail address. */
    emailClaim: p.string(),
    updatedAt: p.datetime(),
  },
});

export type HolderSignInProvider = InferEntity<typeof HolderSignInProvider>;
