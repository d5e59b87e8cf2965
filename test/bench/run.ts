import { adminBench } from './admin.bench.js';
import { issuanceBench } from './issuance.bench.js';
import { scimBench } from './scim.bench.js';
import { statusListBench } from './status-list.bench.js';
import { verificationBench } from './verification.bench.js';

/**
 * `npm run bench`: every benchmark, one after another, printing JSON figures. Not part of the test
 * suite; timings are reported, never asserted.
 */
const only = process.argv[2];
const suites: Record<string, () => Promise<unknown>> = {
  admin: adminBench,
  issuance: issuanceBench,
  'status-list': statusListBench,
  scim: scimBench,
  verification: verificationBench,
};
const results: Record<string, unknown> = {};
for (const [name, run] of Object.entries(suites)) {
  if (only && only !== name) continue;
  results[name] = await run();
}
console.log(JSON.stringify({ when: new Date().toISOString(), node: process.version, results }, null, 2));
process.exit(0);
