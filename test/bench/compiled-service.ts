import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The service as `npm start` runs it: compiled by scripts/build.mjs to dist/ (JavaScript, no tsx),
 * with the benchmark's probe compiled beside it, so that start time, CPU and above all memory are
 * those of the product, not of a TypeScript loader (tsx holds about 50 MB of its own).
 */
export async function compiledService(): Promise<{ main: string; probe: string }> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  // Inside the repository, so that its imports (pg) resolve to node_modules as the service's do.
  const probe = path.resolve('dist/bench/process-probe.mjs');
  await build({
    entryPoints: ['test/bench/process-probe.ts'],
    outfile: probe,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node24',
    logLevel: 'warning',
  });
  return { main: 'dist/server/main.js', probe };
}
