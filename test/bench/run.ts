import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { auditSealingBench } from './audit-sealing.bench.js';
import { keyStoreBench } from './key-store.bench.js';
import { soakBench } from './soak.bench.js';
import { sseBench } from './sse.bench.js';
import { statusListBench } from './status-list.bench.js';
import { throughputBench } from './throughput.bench.js';

/**
 * `npm run bench [-- suite… --quick --embedded --profile [--profile-dir=dir] --only=text --tenants=1,50]`: the
 * suites one after another (the default ones when none is named), figures as JSON on stdout, progress on stderr.
 * Not part of the test suite; timings are reported, never asserted.
 *   --quick     a short run (a quarter of the operations)
 *   --embedded  the service without DATABASE_URL, on its embedded database
 *   --only      only the throughput figures whose name contains the text (`a|b`: either)
 *   --profile   a V8 CPU profile of the service per figure, of its measured window only
 *               (under --profile-dir, default in the temporary directory; see profile-summary.ts)
 * Suites: throughput (the figures against the minimal pipeline), status-list, audit-sealing
 * (sealing lag after a burst), sse, key-store (the credential endpoint with software keys and with
 * keys in a SoftHSM token, side by side), and soak
 * (RSS after 100,000 requests), which runs only when named.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: 'boolean', default: false },
    embedded: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'profile-dir': { type: 'string' },
    only: { type: 'string' },
    tenants: { type: 'string' },
  },
});
const options = {
  quick: values.quick ?? false,
  embedded: values.embedded ?? false,
  profileDir: values.profile
    ? (values['profile-dir'] ?? path.join(os.tmpdir(), 'credservice-bench-profiles'))
    : undefined,
  only: values.only,
  ...(values.tenants ? { tenantCounts: values.tenants.split(',').map(Number) } : {}),
};

const suites: Record<string, () => Promise<unknown>> = {
  throughput: () => throughputBench(options),
  'status-list': statusListBench,
  'audit-sealing': () => auditSealingBench(options.quick ? 200 : 1000),
  sse: () => sseBench(options),
  soak: () => soakBench(options),
  'key-store': () => keyStoreBench(options),
};
/** Run when no suite is named; soak (100,000 requests) only when asked for. */
const DEFAULT_SUITES = ['throughput', 'status-list', 'audit-sealing', 'sse', 'key-store'];
const chosen = positionals.length ? positionals : DEFAULT_SUITES;
const results: Record<string, unknown> = {};
for (const name of chosen) {
  const run = suites[name];
  if (!run) throw new Error(`no bench suite ${name}; there are ${Object.keys(suites).join(', ')}`);
  process.stderr.write(`bench: ${name}\n`);
  results[name] = await run();
}
console.log(
  JSON.stringify({ when: new Date().toISOString(), node: process.version, options, results }, null, 2),
);
if (options.profileDir)
  process.stderr.write(
    `bench: CPU profiles in ${options.profileDir}; summary: node --import tsx test/bench/profile-summary.ts ${options.profileDir}\n`,
  );
process.exit(0);
