import type { EntityManager } from '@mikro-orm/postgresql';
import { frozenRow } from '../cache/frozen-row.js';
import { cached, type EntityManagerSource, entityManagerOf, invalidate } from '../cache/node-caches.js';
import { ApiToken, type TokenKind } from './api-token.entity.js';
import { Tenant } from './tenant.entity.js';

/**
 * Tenants and API tokens are read on every authenticated request and change only through the admin
 * API: they come from the node's cache, and each change invalidates them on every node (see
 * server/cache). A tenant or token that does not exist is not remembered, so creating one needs no
 * invalidation.
 */
const TENANT = 'tenant';
const TOKEN = 'api-token';

/** The tenant as committed, shared and frozen; undefined when there is none. */
export function cachedTenant(em: EntityManagerSource, id: string): Promise<Tenant | undefined> {
  return cached(em, TENANT, id, async () => {
    const row = await entityManagerOf(em).findOne(Tenant, { id }, { disableIdentityMap: true });
    return row ? frozenRow(row) : undefined;
  });
}

/** The token row of `id` if it is of `kind`; the caller checks secret, expiry and revocation. */
export async function cachedToken(
  em: EntityManagerSource,
  id: string,
  kind: TokenKind,
): Promise<ApiToken | undefined> {
  const row = await cached(em, TOKEN, id, async () => {
    const found = await entityManagerOf(em).findOne(ApiToken, { id }, { disableIdentityMap: true });
    return found ? frozenRow(found) : undefined;
  });
  return row?.kind === kind ? row : undefined;
}

/** Call in the transaction that changes the tenant's row. */
export const tenantChanged = (tx: EntityManager, id: string) => invalidate(tx, TENANT, id);

/** Call in the transaction that changes (revokes) the token's row. */
export const tokenChanged = (tx: EntityManager, id: string) => invalidate(tx, TOKEN, id);
