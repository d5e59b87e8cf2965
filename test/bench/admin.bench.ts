import { expectStatus } from './harness.js';
import type { Scenario } from './scenario.js';
import { tenantOf } from './scenario.js';

/** Token authentication alone, and the admin API's heaviest write. */
export const adminScenarios: Scenario[] = [
  {
    name: 'integrator: authenticated GET /api/v1/me (token check, tenant read)',
    matches: 'issue',
    operations: 2000,
    prepare: async (ctx) => async (i) =>
      expectStatus(await tenantOf(ctx, i).integrator.whoAmI(), 200, 'whoami'),
  },
  {
    name: 'admin: create tenant (2 tokens, audit events, one transaction)',
    matches: 'issue',
    operations: 200,
    singleTenant: true,
    prepare: async (ctx) => async (i) =>
      expectStatus(
        await ctx.service.admin.createTenant({
          body: { id: `${ctx.pass}-new-${i}`, name: 'Bench', delivery: 'email' },
        }),
        201,
        'tenant',
      ),
  },
];
