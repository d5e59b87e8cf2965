import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeyEncryption } from '../keys/key-encryption.js';
import { HolderSignInProvider } from './holder-sign-in-provider.entity.js';

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailClaim: string;
}

/** Where the tenant's provider sends holders back (the sign-in's callback on this issuer). */
export const holderSignInRedirectUri = (issuerUrl: string) =>
  `${issuerUrl}/oauth2/authorize/issuance/callback`;

// Bound to the tenant: a sealed secret copied onto another tenant's row does not open.
const aad = (tenantId: string) => `holder-sign-in-provider:${tenantId}`;

/** The tenant's OpenID provider for its holders, or null: they sign in with a mailed one-time code. */
export function holderSignInProviderOf(em: EntityManager, tenantId: string) {
  return em.findOne(HolderSignInProvider, { tenantId }, { disableIdentityMap: true });
}

/** The client secret, opened only when the token request is made. */
export const clientSecretOf = (sealing: KeyEncryption, p: HolderSignInProvider) =>
  sealing.open(p.clientSecretSealed, aad(p.tenantId)).toString('utf8');

/** Sets (or replaces) the tenant's provider in the caller's transaction, its secret sealed. */
export async function saveHolderSignInProvider(
  tx: EntityManager,
  sealing: KeyEncryption,
  tenantId: string,
  s: ProviderSettings,
): Promise<HolderSignInProvider> {
  const row = {
    tenantId,
    issuer: s.issuer,
    clientId: s.clientId,
    clientSecretSealed: sealing.seal(Buffer.from(s.clientSecret, 'utf8'), aad(tenantId)),
    emailClaim: s.emailClaim,
    updatedAt: new Date(),
  };
  await tx.upsert(HolderSignInProvider, row);
  return row;
}

/** Removes it: the tenant's holders sign in with a mailed one-time code again. True when one was set. */
export async function removeHolderSignInProvider(tx: EntityManager, tenantId: string): Promise<boolean> {
  return (await tx.nativeDelete(HolderSignInProvider, { tenantId })) > 0;
}
