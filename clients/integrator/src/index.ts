import { initClient } from '@ts-rest/core';
import { adminContract, contract, integratorContract } from '../../../contract/index.js';

export * from '../../../contract/index.js';

export interface ClientOptions {
  /** Base address of the service, e.g. https://credentials.example.com */
  baseUrl: string;
  /** An integrator token (integrator client) or the ADMIN_TOKEN (admin client). */
  token: string;
  /** Extra headers on every request, e.g. a request id. */
  headers?: Record<string, string>;
}

const clientArgs = (o: ClientOptions) => ({
  baseUrl: o.baseUrl.replace(/\/+$/, ''),
  baseHeaders: { authorization: `Bearer ${o.token}`, ...o.headers },
  throwOnUnknownStatus: true,
});

/** The integrator API of one tenant: every call typed from the service's contract. */
export const createIntegratorClient = (o: ClientOptions) => initClient(integratorContract, clientArgs(o));

/** The operator's admin API (tenants, tokens, audit log, signing keys). */
export const createAdminClient = (o: ClientOptions) => initClient(adminContract, clientArgs(o));

/** Everything in one client, for tools that speak to several parts. */
export const createClient = (o: ClientOptions) => initClient(contract, clientArgs(o));
