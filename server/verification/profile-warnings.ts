import type { EntityManager } from '@mikro-orm/postgresql';
import type { Tenant } from '../tenants/tenant.entity.js';
import { HAIP_1_0 } from './haip-session-rules.js';
import { listTrustAnchors } from './trust-anchors.js';

/**
 * What keeps a tenant's verifier from starting presentations under its profile, for the tenant's
 * admin view. The profile may be switched on before the anchors are added (that order is allowed),
 * so the gap is shown here rather than refused when the profile is set.
 */
export async function presentationProfileWarnings(em: EntityManager, tenant: Tenant): Promise<string[]> {
  if (tenant.presentationProfile !== HAIP_1_0) return [];
  if ((await listTrustAnchors(em, tenant.id)).length > 0) return [];
  return [
    `presentation sessions cannot start: the HAIP 1.0 profile trusts issuers only by x5c chains to the tenant’s trust anchors, and it has none (POST /admin/v1/tenants/${tenant.id}/trust-anchors)`,
  ];
}
