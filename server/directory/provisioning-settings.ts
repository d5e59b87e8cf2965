import type { EntityManager } from '@mikro-orm/postgresql';
import { frozenRow } from '../cache/frozen-row.js';
import { cached, invalidate } from '../cache/node-caches.js';
import { defaultProvisioning, TenantProvisioning } from './tenant-provisioning.entity.js';

/**
 * Read by every SCIM write, changed only by an operator: the settings come from the node's cache,
 * and saving them invalidates every node's copy (see server/cache).
 */
const PROVISIONING = 'tenant-provisioning';

/** The tenant's provisioning settings (shared and frozen), or the defaults when the operator has set none. */
export async function provisioningOf(em: EntityManager, tenantId: string): Promise<TenantProvisioning> {
  return cached(em, PROVISIONING, tenantId, async () => {
    const row = await em.findOne(TenantProvisioning, { tenantId }, { disableIdentityMap: true });
    return frozenRow(row ?? defaultProvisioning(tenantId));
  });
}

/** Stores the tenant's settings in the caller's transaction; every node rereads them after its commit. */
export async function saveProvisioning(tx: EntityManager, settings: TenantProvisioning): Promise<void> {
  await tx.upsert(TenantProvisioning, settings);
  await invalidate(tx, PROVISIONING, settings.tenantId);
}
