import { initServer } from '@ts-rest/express';
import { integratorContract } from '../../contract/integrator-contract.js';
import { integratorActor } from '../http/integrator-guard.js';
import { principalOf } from '../http/request-context.js';
import {
  deleteOidcClient,
  listOidcClients,
  oidcClientView,
  registeredClientView,
  registerOidcClient,
} from './oidc-client-registry.js';

const s = initServer();
const r = integratorContract;

/** The tenant's relying parties through its integrator token (the admin API's, for this tenant only). */
export function tenantOidcClientRoutes() {
  return {
    listTenantOidcClients: s.route(r.listTenantOidcClients, async ({ req }) => ({
      status: 200,
      body: { items: (await listOidcClients(req.em, principalOf(req).tenantId)).map(oidcClientView) },
    })),
    createTenantOidcClient: s.route(r.createTenantOidcClient, async ({ body, req }) => {
      const tenantId = principalOf(req).tenantId;
      const registered = await registerOidcClient(req.em, tenantId, body, integratorActor(req));
      return { status: 201, body: registeredClientView(registered) };
    }),
    deleteTenantOidcClient: s.route(r.deleteTenantOidcClient, async ({ params, req }) => {
      await deleteOidcClient(req.em, principalOf(req).tenantId, params.clientId, integratorActor(req));
      return { status: 204, body: undefined };
    }),
  };
}
