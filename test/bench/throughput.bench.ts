import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { walletProviderWithAnchorsFile } from '../support/wallet-provider.js';
import { adminScenarios } from './admin.bench.js';
import { authorizationCodeScenarios } from './authorization-code.bench.js';
import { DatabaseCpu } from './database-cpu.js';
import { type Figure, measure, measureAtRate, startBenchService } from './harness.js';
import { issuanceScenarios } from './issuance.bench.js';
import { mdocIssuanceScenarios, mdocVerificationScenarios } from './mdoc.bench.js';
import { startMinimalPipeline } from './minimal-driver.js';
import { type Costs, type ObservedSide, observe } from './observe.js';
import { createBenchTenants, type Scenario } from './scenario.js';
import { scimScenarios } from './scim.bench.js';
import { reportSideBySide, sideBySide } from './side-by-side.js';
import { verificationScenarios } from './verification.bench.js';

export interface ThroughputOptions {
  quick: boolean;
  embedded: boolean;
  profileDir?: string | undefined;
  /** Only scenarios whose name contains this (or one of its `|`-separated parts). */
  only?: string | undefined;
  tenantCounts?: number[];
}

export interface Row extends Figure, Costs {
  tenants: number;
  /** This figure's throughput over the matching minimal pipeline's, measured just before it. */
  share_of_minimal: number;
  /**
   * The minimal pipeline's CPU per operation (its process and its backends) over this figure's: on
   * a machine where CPU is the limit, the share the service would reach with the machine to itself.
   * Less disturbed by other load on the machine than the throughput share.
   */
  cpu_share_of_minimal: number | null;
  minimal: Pick<Costs, 'cpu_ms_per_op' | 'system_cpu_ms_per_op' | 'pg_cpu_ms_per_op'> & {
    kind: string;
    per_second: number;
  };
}

const CONCURRENCY = 8;
const scenarios: Scenario[] = [
  ...adminScenarios,
  ...issuanceScenarios,
  ...mdocIssuanceScenarios,
  ...authorizationCodeScenarios,
  ...verificationScenarios,
  ...mdocVerificationScenarios,
  ...scimScenarios,
];

/**
 * The figures in one run: each service figure is held against the minimal pipeline measured
 * right before it on the same machine and database, so a busy machine moves both alike. Then once
 * with the load on one tenant and once spread over fifty.
 */
export async function throughputBench(o: ThroughputOptions) {
  const smtp = await startSmtpCatcher();
  // A wallet provider made for this run, whose root the service trusts: attested wallets' figures.
  const walletProviders = await walletProviderWithAnchorsFile();
  const service = await startBenchService({
    env: { SMTP_URL: smtp.url, WALLET_PROVIDER_TRUST_ANCHORS: walletProviders.anchors },
    embedded: o.embedded,
  });
  const db = await DatabaseCpu.connect(service.databaseUrl);
  const minimal = await startMinimalPipeline(service.databaseUrl, db);
  const serviceSide: ObservedSide = { side: 'service', probe: service.probe, profile: service.profile, db };
  if (o.profileDir) await fs.mkdir(o.profileDir, { recursive: true });
  const profileOf = (tenants: number, name: string) =>
    o.profileDir
      ? path.join(o.profileDir, `${tenants}t-${name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80)}.cpuprofile`)
      : undefined;
  const minimalOps = o.quick ? 200 : 600;
  const rows: Row[] = [];
  let requests = 0;
  const selected = scenarios.filter(
    (s) => !o.only || o.only.split('|').some((part) => s.name.includes(part)),
  );
  try {
    // Warms the minimal pipeline's routes that will be measured (JIT, pool, the mdoc chain and status caches).
    for (const kind of new Set(selected.map((s) => s.matches))) await minimal.measure(kind, 200, CONCURRENCY);
    for (const tenantCount of o.tenantCounts ?? [1, 50]) {
      const pass = `t${tenantCount}-${randomBytes(3).toString('hex')}`;
      const tenants = await createBenchTenants(service, tenantCount, pass);
      const ctx = { service, smtp, tenants, pass, walletProvider: walletProviders.provider };
      for (const s of selected) {
        if (s.singleTenant && tenantCount > 1) continue;
        const total = o.quick ? Math.ceil(s.operations / 4) : s.operations;
        const op = await s.prepare(ctx, s.halfPeak ? total * 2 : total);
        const base = await minimal.measure(s.matches, minimalOps, CONCURRENCY);
        const peak = await observe(
          serviceSide,
          () => measure(s.name, total, CONCURRENCY, op),
          profileOf(tenantCount, s.name),
        );
        const row = (f: Figure & Costs): Row => ({
          tenants: tenantCount,
          ...f,
          share_of_minimal: +(f.per_second / base.per_second).toFixed(3),
          cpu_share_of_minimal: cpuShare(base, f),
          minimal: {
            kind: s.matches,
            per_second: base.per_second,
            cpu_ms_per_op: base.cpu_ms_per_op,
            system_cpu_ms_per_op: base.system_cpu_ms_per_op,
            pg_cpu_ms_per_op: base.pg_cpu_ms_per_op,
          },
        });
        rows.push(row(peak));
        report(rows.at(-1) as Row);
        requests += total;
        if (s.halfPeak) {
          const rate = Math.max(1, Math.round(peak.per_second / 2));
          const half = await observe(serviceSide, () =>
            measureAtRate(`${s.name} at half of peak (${rate}/s)`, total, rate, (i) => op(total + i)),
          );
          rows.push(row(half));
          report(rows.at(-1) as Row);
          requests += total;
        }
      }
    }
    const after = await service.probe();
    const besides = sideBySide(rows, selected);
    reportSideBySide(besides);
    return {
      mode: {
        quick: o.quick,
        database: service.embedded ? 'embedded' : 'external PostgreSQL',
        concurrency: CONCURRENCY,
      },
      service_rss_mb_after_run: Math.round(after.rssBytes / 2 ** 20),
      service_heap_used_mb_after_run: Math.round(after.heapUsedBytes / 2 ** 20),
      service_heap_total_mb_after_run: Math.round(after.heapTotalBytes / 2 ** 20),
      service_external_mb_after_run: Math.round(after.externalBytes / 2 ** 20),
      measured_operations: requests,
      figures: rows,
      side_by_side: besides,
    };
  } finally {
    await minimal.stop();
    await db.close();
    await service.stop();
    await smtp.close();
    await walletProviders.remove();
  }
}

const cpuShare = (minimal: Costs, service: Costs) =>
  minimal.pg_cpu_ms_per_op === null || service.pg_cpu_ms_per_op === null
    ? null
    : +(
        (minimal.cpu_ms_per_op + minimal.pg_cpu_ms_per_op) /
        (service.cpu_ms_per_op + service.pg_cpu_ms_per_op)
      ).toFixed(3);

/** One line per figure on stderr while the run goes on; stdout keeps the JSON. */
function report(r: Row) {
  const pg = r.pg_cpu_ms_per_op === null ? 'in-process' : r.pg_cpu_ms_per_op.toFixed(2);
  process.stderr.write(
    `${String(r.tenants).padStart(2)}t ${(r.share_of_minimal * 100).toFixed(1).padStart(5)}% of ${r.minimal.per_second}/s ` +
      `(cpu ${r.cpu_share_of_minimal === null ? '-' : (r.cpu_share_of_minimal * 100).toFixed(1)}%) ` +
      `${String(r.per_second).padStart(5)}/s p50 ${r.p50_ms} p99 ${r.p99_ms} ms, ` +
      `${r.statements_per_op} stmt/op, cpu ${r.cpu_ms_per_op} (sys ${r.system_cpu_ms_per_op}) ms + pg ${pg} ms/op, ` +
      `rss ${r.rss_mb_after} MB | ${r.name}\n`,
  );
}
