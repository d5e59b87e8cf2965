import type { EntityManager } from '@mikro-orm/postgresql';
import { defaultProvisioning, TenantProvisioning } from './tenant-provisioning.entity.js';

/** The tenant's provisioning settings, or the defaults when the operator has set none. */
export async function provisioningOf(em: EntityManager, tenantId: string): Promise<TenantProvisioning> {
  return (await em.findOne(TenantProvisioning, { tenantId })) ?? defaultProvisioning(tenantId);
}
