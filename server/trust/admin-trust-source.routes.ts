import type { EntityManager } from '@mikro-orm/postgresql';
import { initServer } from '@ts-rest/express';
import { trustSourceContract } from '../../contract/admin/trust-source-contract.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { adminActor } from '../http/admin-guard.js';
import { getTenant } from '../tenants/tenant-service.js';
import { refreshTrustSource } from './refresh-trust-source.js';
import { sourceStatus } from './source-status.js';
import { tenantTrustChanged } from './tenant-trust.js';
import type { TrustServices } from './trust-services.js';
import { TrustSourceRow } from './trust-source.entity.js';
import { trustSourceView } from './trust-source.view.js';
import { trustSourceRow } from './trust-source-input.js';

const s = initServer();

async function findSource(em: EntityManager, tenantId: string, id: string): Promise<TrustSourceRow> {
  await getTenant(em, tenantId);
  const row = await em.findOne(TrustSourceRow, { tenantId, id }, { disableIdentityMap: true });
  if (!row) throw notFound(`trust source ${id}`);
  return row;
}

/** Operators add, read, refresh and remove the published lists a tenant trusts by; each change is audited. */
export function adminTrustSourceRoutes(trust: TrustServices) {
  const grace = trust.settings.TRUST_LIST_GRACE_SECONDS;
  return s.router(trustSourceContract, {
    addTrustSource: async ({ params, body, req }) => {
      await getTenant(req.em, params.id);
      const row = trustSourceRow(params.id, body);
      await req.em.transactional(async (tx) => {
        await tx.insert(TrustSourceRow, row);
        await appendAuditEvent(tx, {
          tenantId: params.id,
          actor: adminActor(req),
          action: 'trust.source_added',
          subject: row.id,
          details: { type: row.type, url: row.url, service_types: row.serviceTypes },
        });
      });
      const fetched = await refreshTrustSource(req.em, trust, row, adminActor(req));
      return { status: 201, body: trustSourceView(fetched, grace) };
    },
    listTrustSources: async ({ params, req }) => {
      await getTenant(req.em, params.id);
      const rows = await req.em.find(
        TrustSourceRow,
        { tenantId: params.id },
        { orderBy: { createdAt: 'asc', id: 'asc' }, disableIdentityMap: true },
      );
      return { status: 200, body: { items: rows.map((r) => trustSourceView(r, grace)) } };
    },
    getTrustSource: async ({ params, req }) => ({
      status: 200,
      body: trustSourceView(await findSource(req.em, params.id, params.sourceId), grace),
    }),
    refreshTrustSource: async ({ params, req }) => {
      const row = await findSource(req.em, params.id, params.sourceId);
      return {
        status: 200,
        body: sourceStatus(await refreshTrustSource(req.em, trust, row, adminActor(req)), grace),
      };
    },
    deleteTrustSource: async ({ params, req }) => {
      await req.em.transactional(async (tx) => {
        const deleted = await tx.nativeDelete(TrustSourceRow, { tenantId: params.id, id: params.sourceId });
        if (deleted === 0) throw notFound(`trust source ${params.sourceId}`);
        await tenantTrustChanged(tx, params.id);
        await appendAuditEvent(tx, {
          tenantId: params.id,
          actor: adminActor(req),
          action: 'trust.source_removed',
          subject: params.sourceId,
        });
      });
      return { status: 204, body: undefined };
    },
  });
}
