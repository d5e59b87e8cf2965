import { type InitClientReturn, initClient } from '@ts-rest/core';
import { adminContract, contract, integratorContract } from '../../../contract/index.js';

export * from '../../../contract/index.js';
export * from './employee-issuance.js';

export interface ClientOptions {
  /** Base address of the service, e.g. https://credentials.example.com */
  baseUrl: string;
  /** An integrator token (integrator client) or the ADMIN_TOKEN (admin client). */
  token: string;
  /** Extra headers on every request, e.g. a request id. */
  headers?: Record<string, string>;
}

/**
 * Named, so that the declarations refer to ts-rest's types instead of inlining thousands of lines
 * of them (which would also name @types/node internals an application may not have).
 */
interface ServiceClientArgs {
  baseUrl: string;
  baseHeaders: Record<string, string>;
  throwOnUnknownStatus: true;
}

const clientArgs = (o: ClientOptions): ServiceClientArgs => ({
  baseUrl: o.baseUrl.replace(/\/+$/, ''),
  baseHeaders: { authorization: `Bearer ${o.token}`, ...o.headers },
  throwOnUnknownStatus: true,
});

export type IntegratorClient = InitClientReturn<typeof integratorContract, ServiceClientArgs>;
export type AdminClient = InitClientReturn<typeof adminContract, ServiceClientArgs>;
export type ServiceClient = InitClientReturn<typeof contract, ServiceClientArgs>;

/** The integrator API of one tenant: every call typed from the service's contract. */
export const createIntegratorClient = (o: ClientOptions): IntegratorClient =>
  initClient(integratorContract, clientArgs(o));

/** The operator's admin API (tenants, tokens, audit log, signing keys). */
export const createAdminClient = (o: ClientOptions): AdminClient => initClient(adminContract, clientArgs(o));

/** Everything in one client, for tools that speak to several parts. */
export const createClient = (o: ClientOptions): ServiceClient => initClient(contract, clientArgs(o));
