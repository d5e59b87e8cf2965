import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import { adminActor } from '../http/admin-guard.js';
import {
  deleteOidcClient,
  listOidcClients,
  oidcClientView,
  registeredClientView,
  registerOidcClient,
} from './oidc-client-registry.js';

const s = initServer();

/** Admin routes for a tenant's relying parties: register (secret shown once), list, delete. */
export function adminOidcClientRoutes() {
  return {
    createOidcClient: s.route(adminContract.createOidcClient, async ({ params, body, req }) => {
      const registered = await registerOidcClient(req.em, params.id, body, adminActor(req));
      return { status: 201, body: registeredClientView(registered) };
    }),
    listOidcClients: s.route(adminContract.listOidcClients, async ({ params, req }) => ({
      status: 200,
      body: { items: (await listOidcClients(req.em, params.id)).map(oidcClientView) },
    })),
    deleteOidcClient: s.route(adminContract.deleteOidcClient, async ({ params, req }) => {
      await deleteOidcClient(req.em, params.id, params.clientId, adminActor(req));
      return { status: 204, body: undefined };
    }),
  };
}
