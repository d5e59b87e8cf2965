import { initContract } from '@ts-rest/core';
import { adminContract } from './admin/admin-contract.js';
import { healthContract } from './health-contract.js';
import { integratorContract } from './integrator-contract.js';

export * from './admin/api-token.js';
export * from './admin/audit-event.js';
export * from './admin/signing-key.js';
export * from './admin/tenant.js';
export * from './integrator-contract.js';
export * from './problem-details.js';
export { adminContract, healthContract, integratorContract };

const c = initContract();

/** The whole HTTP interface: one source for the server's routes, the typed client and OpenAPI. */
export const contract = c.router({
  health: healthContract,
  admin: adminContract,
  integrator: integratorContract,
});
