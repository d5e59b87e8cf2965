import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { TrustSourceInput } from '../../contract/admin/trust-source.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { getTenant } from '../tenants/tenant-service.js';
import { refreshTrustSource } from './refresh-trust-source.js';
import { sourceStatus } from './source-status.js';
import { tenantTrustChanged } from './tenant-trust.js';
import type { TrustServices } from './trust-services.js';
import { TrustSourceRow } from './trust-source.entity.js';
import { trustSourceView } from './trust-source.view.js';
import { trustSourceRow } from './trust-source-input.js';

/**
 * A tenant's trust sources, changed through the admin API or the tenant's own API alike: each
 * change audited under the caller, a new source fetched at once.
 */
export function trustSourceChanges(trust: TrustServices) {
  const grace = trust.settings.TRUST_LIST_GRACE_SECONDS;
  const find = async (em: EntityManager, tenantId: string, id: string) => {
    await getTenant(em, tenantId);
    const row = await em.findOne(TrustSourceRow, { tenantId, id }, { disableIdentityMap: true });
    if (!row) throw notFound(`trust source ${id}`);
    return row;
  };
  return {
    async add(em: EntityManager, tenantId: string, body: z.infer<typeof TrustSourceInput>, actor: string) {
      await getTenant(em, tenantId);
      const row = trustSourceRow(tenantId, body);
      await em.transactional(async (tx) => {
        await tx.insert(TrustSourceRow, row);
        await appendAuditEvent(tx, {
          tenantId,
          actor,
          action: 'trust.source_added',
          subject: row.id,
          details: { type: row.type, url: row.url, service_types: row.serviceTypes },
        });
      });
      return trustSourceView(await refreshTrustSource(em, trust, row, actor), grace);
    },
    async list(em: EntityManager, tenantId: string) {
      await getTenant(em, tenantId);
      const rows = await em.find(
        TrustSourceRow,
        { tenantId },
        { orderBy: { createdAt: 'asc', id: 'asc' }, disableIdentityMap: true },
      );
      return rows.map((r) => trustSourceView(r, grace));
    },
    get: async (em: EntityManager, tenantId: string, id: string) =>
      trustSourceView(await find(em, tenantId, id), grace),
    async refresh(em: EntityManager, tenantId: string, id: string, actor: string) {
      const row = await find(em, tenantId, id);
      return sourceStatus(await refreshTrustSource(em, trust, row, actor), grace);
    },
    async remove(em: EntityManager, tenantId: string, id: string, actor: string) {
      await em.transactional(async (tx) => {
        const deleted = await tx.nativeDelete(TrustSourceRow, { tenantId, id });
        if (deleted === 0) throw notFound(`trust source ${id}`);
        await tenantTrustChanged(tx, tenantId);
        await appendAuditEvent(tx, { tenantId, actor, action: 'trust.source_removed', subject: id });
      });
    },
  };
}
