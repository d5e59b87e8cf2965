import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { principalOf } from '../http/request-context.js';
import { getTenant } from '../tenants/tenant-service.js';

const s = initServer();

export function whoAmIRoutes() {
  return {
    whoAmI: s.route(integratorContract.whoAmI, async ({ req }) => {
      const tenant = await getTenant(req.unforkedEm, principalOf(req).tenantId);
      return { status: 200, body: { tenant_id: tenant.id, name: tenant.name, delivery: tenant.delivery } };
    }),
  };
}
