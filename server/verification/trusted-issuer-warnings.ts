import type { EntityManager } from '@mikro-orm/postgresql';
import { TrustedIssuer } from './trusted-issuer.entity.js';

/**
 * Why a trusted issuer's credentials are refused, in words an operator can act on: its keys could
 * not be had from its jwt-vc-issuer metadata, so its credentials fail as `untrusted_issuer` until
 * they can (each presentation tries again) or until it is registered with `jwks`.
 */
export function unresolvedKeysWarning(t: Pick<TrustedIssuer, 'issuer' | 'keysError' | 'keysCheckedAt'>) {
  const when = t.keysCheckedAt ? ` (checked ${t.keysCheckedAt.toISOString()})` : '';
  return (
    `credentials of trusted issuer ${t.issuer} fail as untrusted_issuer: its keys could not be resolved${when}: ` +
    `${t.keysError}. Each presentation tries again; or register it with jwks`
  );
}

/**
 * The tenant's trusted issuers whose keys could not be resolved the last time they were looked for
 * (at registration, then at each presentation that needed them), for the tenant's admin view. Read
 * from their rows: the view fetches nothing.
 */
export async function trustedIssuerWarnings(em: EntityManager, tenantId: string): Promise<string[]> {
  const unresolved = await em.find(
    TrustedIssuer,
    { tenantId, keysError: { $ne: null } },
    { orderBy: { issuer: 'asc' } },
  );
  return unresolved.map(unresolvedKeysWarning);
}
