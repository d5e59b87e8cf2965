import { initServer } from '@ts-rest/express';
import { trustSourceContract } from '../../contract/admin/trust-source-contract.js';
import { adminActor } from '../http/admin-guard.js';
import type { TrustServices } from './trust-services.js';
import { trustSourceChanges } from './trust-source-changes.js';

const s = initServer();

/** Operators add, read, refresh and remove the published lists a tenant trusts by; each change is audited. */
export function adminTrustSourceRoutes(trust: TrustServices) {
  const sources = trustSourceChanges(trust);
  return s.router(trustSourceContract, {
    addTrustSource: async ({ params, body, req }) => ({
      status: 201,
      body: await sources.add(req.em, params.id, body, adminActor(req)),
    }),
    listTrustSources: async ({ params, req }) => ({
      status: 200,
      body: { items: await sources.list(req.em, params.id) },
    }),
    getTrustSource: async ({ params, req }) => ({
      status: 200,
      body: await sources.get(req.em, params.id, params.sourceId),
    }),
    refreshTrustSource: async ({ params, req }) => ({
      status: 200,
      body: await sources.refresh(req.em, params.id, params.sourceId, adminActor(req)),
    }),
    deleteTrustSource: async ({ params, req }) => {
      await sources.remove(req.em, params.id, params.sourceId, adminActor(req));
      return { status: 204, body: undefined };
    },
  });
}
