import type { EntityManager } from '@mikro-orm/postgresql';
import { sourceWarning } from './source-status.js';
import { TrustSourceRow } from './trust-source.entity.js';

/** The tenant's trust sources that are stale or vouch for nothing, in words, for its admin view. */
export async function trustSourceWarnings(em: EntityManager, tenantId: string, graceSeconds: number) {
  const rows = await em.find(
    TrustSourceRow,
    { tenantId },
    { orderBy: { createdAt: 'asc' }, disableIdentityMap: true },
  );
  const now = new Date();
  return rows.flatMap((row) => sourceWarning(row, graceSeconds, now) ?? []);
}
