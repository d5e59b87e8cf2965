import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { scimClient } from '../support/scim-client.js';
import type { startSmtpCatcher } from '../support/smtp-catcher.js';
import type { WalletProvider } from './bench-wallet.js';
import type { BenchService } from './harness.js';
import type { MinimalKind } from './minimal-driver.js';

/** A tenant the load is spread over, with the clients its integrator and its directory would use. */
export interface BenchTenant {
  id: string;
  integrator: ReturnType<typeof createIntegratorClient>;
  scim: ReturnType<typeof scimClient>;
}

export interface ScenarioContext {
  service: BenchService;
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  tenants: BenchTenant[];
  /** Unique per pass, so that names (userName, e-mail) never collide between passes. */
  pass: string;
  /** The wallet provider whose root the service trusts (WALLET_PROVIDER_TRUST_ANCHORS). */
  walletProvider?: WalletProvider;
}

/**
 * One figure of `npm run bench`: what is measured, which minimal pipeline it is held against, and
 * the work done before the clock starts (tokens, proofs, sessions), which returns the measured
 * operation. Operation `i` belongs to tenant `i % tenants.length`.
 */
export interface Scenario {
  name: string;
  matches: MinimalKind;
  /** Operations in a full run; `--quick` runs a quarter. */
  operations: number;
  /** Measured with one tenant only (a large seeded tenant, an admin operation). */
  singleTenant?: boolean;
  /** Also measured at half of the peak rate, for p99 there (twice the operations are prepared). */
  halfPeak?: boolean;
  /** The name of the figure this one is summarised beside (an mdoc figure: its SD-JWT VC twin). */
  besides?: string;
  prepare(ctx: ScenarioContext, total: number): Promise<(i: number) => Promise<unknown>>;
}

export const tenantOf = (ctx: ScenarioContext, i: number) =>
  ctx.tenants[i % ctx.tenants.length] as BenchTenant;

/** `count` tenants with the mandator credentials need; SCIM users get credentials directly. */
export async function createBenchTenants(service: BenchService, count: number, pass: string) {
  const tenants: BenchTenant[] = [];
  for (let k = 0; k < count; k++) {
    const id = `${pass}-${k}`;
    const created = await service.admin.createTenant({
      body: {
        id,
        name: `Bench ${k}`,
        delivery: 'direct',
        mandator: {
          organizationIdentifier: `VATES-B${k}`,
          organization: `Bench ${k}`,
          commonName: 'Jane',
          email: 'jane@bench.test',
          country: 'ES',
        },
      },
    });
    if (created.status !== 201) throw new Error(`tenant ${id}: ${created.status}`);
    tenants.push({
      id,
      integrator: createIntegratorClient({ baseUrl: service.baseUrl, token: created.body.integrator_token }),
      scim: scimClient(service.baseUrl, id, created.body.scim_token),
    });
  }
  return tenants;
}

/** Runs `fn` for 0..n-1 with `concurrency` in flight: preparation goes as fast as the service allows. */
export async function inParallel<T>(n: number, concurrency: number, fn: (i: number) => Promise<T>) {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}
