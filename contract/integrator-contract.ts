import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DeliveryMode } from './admin/tenant.js';
import { ProblemDetails } from './problem-details.js';

const c = initContract();

export const IntegratorIdentity = z.object({
  tenant_id: z.string(),
  name: z.string(),
  delivery: DeliveryMode,
});

/** The integrator API of a tenant (bearer integrator token). */
export const integratorContract = c.router(
  {
    whoAmI: {
      method: 'GET',
      path: '/me',
      responses: { 200: IntegratorIdentity, 401: ProblemDetails },
      summary: 'The tenant the presented integrator token belongs to',
    },
  },
  { pathPrefix: '/api/v1', strictStatusCodes: true, metadata: { security: 'integrator' } as const },
);
