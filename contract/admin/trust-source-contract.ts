import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ProblemDetails } from '../problem-details.js';
import { TenantId } from './tenant.js';
import {
  TrustSource,
  TrustSourceId,
  TrustSourceInput,
  TrustSourceList,
  TrustSourceStatus,
} from './trust-source.js';

const c = initContract();
const sourceParams = z.object({ id: TenantId, sourceId: TrustSourceId });

/** Published trust lists a tenant trusts by: added, read, refreshed on demand and removed by operators. */
export const trustSourceContract = c.router(
  {
    addTrustSource: {
      method: 'POST',
      path: '/tenants/:id/trust-sources',
      pathParams: z.object({ id: TenantId }),
      body: TrustSourceInput,
      responses: { 201: TrustSource, 400: ProblemDetails, 401: ProblemDetails, 404: ProblemDetails },
      summary:
        'Trust a published list; it is fetched once before the answer, whose status says how that went',
    },
    listTrustSources: {
      method: 'GET',
      path: '/tenants/:id/trust-sources',
      pathParams: z.object({ id: TenantId }),
      responses: { 200: TrustSourceList, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'The tenant’s trust sources with their status',
    },
    getTrustSource: {
      method: 'GET',
      path: '/tenants/:id/trust-sources/:sourceId',
      pathParams: sourceParams,
      responses: { 200: TrustSource, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'One trust source with its status',
    },
    refreshTrustSource: {
      method: 'POST',
      path: '/tenants/:id/trust-sources/:sourceId/refresh',
      pathParams: sourceParams,
      body: c.noBody(),
      responses: { 200: TrustSourceStatus, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Fetch the list now; answers its status',
    },
    deleteTrustSource: {
      method: 'DELETE',
      path: '/tenants/:id/trust-sources/:sourceId',
      pathParams: sourceParams,
      body: c.noBody(),
      responses: { 204: c.noBody(), 401: ProblemDetails, 404: ProblemDetails },
      summary: 'Stop trusting a list: what it vouched for is no longer trusted',
    },
  },
  { pathPrefix: '/admin/v1', strictStatusCodes: true, metadata: { security: 'admin' } as const },
);

export { TrustSource, TrustSourceInput, TrustSourceList, TrustSourceStatus };
