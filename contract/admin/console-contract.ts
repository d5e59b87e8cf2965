import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ProblemDetails } from '../problem-details.js';
import { ConsoleLinkCreated, ConsoleSettings, ConsoleSettingsInput } from './console-settings.js';
import { TenantId } from './tenant.js';

const c = initContract();
const tenantPath = z.object({ id: TenantId });
const notFound = { 401: ProblemDetails, 404: ProblemDetails };

/**
 * The administrators' console (/console): which powers let a tenant's employees in, and the
 * operator's own short-lived sign-in link.
 */
export const consoleContract = c.router(
  {
    getConsoleSettings: {
      method: 'GET',
      path: '/tenants/:id/console',
      pathParams: tenantPath,
      responses: { 200: ConsoleSettings, ...notFound },
      summary: 'Which powers make the tenant’s console administrators and auditors (404: no console)',
    },
    putConsoleSettings: {
      method: 'PUT',
      path: '/tenants/:id/console',
      pathParams: tenantPath,
      body: ConsoleSettingsInput,
      responses: { 200: ConsoleSettings, 400: ProblemDetails, ...notFound },
      summary: 'Let the tenant’s employees sign in to the console with a power of their credential',
    },
    createConsoleLink: {
      method: 'POST',
      path: '/console/links',
      body: c.noBody(),
      responses: { 201: ConsoleLinkCreated, 401: ProblemDetails, 404: ProblemDetails },
      summary: 'A one-time sign-in link to the console for the operator (five minutes)',
    },
  },
  { pathPrefix: '/admin/v1', strictStatusCodes: true, metadata: { security: 'admin' } as const },
);
