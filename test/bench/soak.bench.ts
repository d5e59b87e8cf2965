import { employeePayload } from '../support/fixtures.js';
import { expectStatus, measure, startBenchService } from './harness.js';
import { memoryMap } from './memory-map.js';
import { type BenchTenant, createBenchTenants } from './scenario.js';

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/**
 * `npm run bench -- soak`: the service's resident memory after many requests (BENCH_SOAK_REQUESTS,
 * default 100,000; `--quick` 10,000), a mix of reads and writes over ten tenants: authenticated
 * reads, verification sessions and direct issuances. The target is RSS, not throughput.
 */
export async function soakBench(o: { quick: boolean; embedded: boolean }) {
  const total = Number(process.env.BENCH_SOAK_REQUESTS ?? (o.quick ? 10_000 : 100_000));
  const service = await startBenchService({ embedded: o.embedded });
  try {
    const tenants = await createBenchTenants(service, 10, 'soak');
    const at = (i: number) => tenants[i % tenants.length] as BenchTenant;
    const idle = await service.probe();
    const idleMap = memoryMap(service.pid);
    const kinds = [
      async (i: number) => expectStatus(await at(i).integrator.whoAmI(), 200, 'whoami'),
      async (i: number) =>
        expectStatus(
          await at(i).integrator.createAuthorizationRequest({
            body: { credential_configuration_id: 'LEARCredentialEmployee' },
          }),
          201,
          'session',
        ),
      async (i: number) =>
        expectStatus(
          await at(i).integrator.createIssuance({
            body: { credential_configuration_id: 'LEARCredentialEmployee', payload: employeePayload() },
          }),
          201,
          'direct issuance',
        ),
    ];
    const figure = await measure('soak: mixed requests', total, 8, (i) =>
      (kinds[i % kinds.length] as (i: number) => Promise<void>)(i),
    );
    const after = await service.probe();
    return {
      ...figure,
      // CPU time is less swayed than the rate by other work on the machine: the cost of a smaller heap shows here.
      service_cpu_ms_per_op: +((after.cpuMicros - idle.cpuMicros) / 1000 / total).toFixed(3),
      service_rss_mb_idle: mb(idle.rssBytes),
      service_rss_mb_after: mb(after.rssBytes),
      service_heap_used_mb_after: mb(after.heapUsedBytes),
      service_heap_total_mb_after: mb(after.heapTotalBytes),
      service_external_mb_after: mb(after.externalBytes),
      service_heap_spaces_mb_after: Object.fromEntries(
        Object.entries(after.heapSpacesPhysicalBytes).map(([space, bytes]) => [space, mb(bytes)]),
      ),
      // Where the RSS lies, by kind of mapping (memory-map.ts), idle and after.
      service_memory_map_idle: idleMap,
      service_memory_map_after: memoryMap(service.pid),
    };
  } finally {
    await service.stop();
  }
}
