import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The service as `npm start` runs it: compiled by scripts/build.mjs to dist/ (JavaScript, no tsx),
 * with the benchmark's probe compiled beside it, so that start time, CPU and above all memory are
 * those of the product, not of a TypeScript loader (tsx holds about 50 MB of its own).
 */
export async function compiledService(): Promise<{
  main: string;
  probe: string;
  nodeArgs: string[];
  env: Record<string, string>;
}> {
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
  return { ...startCommand(), probe };
}

/**
 * What `npm start` runs after building, read from package.json so that the benchmark cannot drift
 * from it: `VAR=value … node <flags> <main>`.
 */
function startCommand() {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const words = (pkg.scripts.start.split('&&').at(-1) ?? '').trim().split(/\s+/);
  const env: Record<string, string> = {};
  const nodeArgs: string[] = [];
  let main = '';
  for (const word of words) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (assignment) env[assignment[1] as string] = assignment[2] as string;
    else if (word.startsWith('--')) nodeArgs.push(word);
    else if (word !== 'node') main = word;
  }
  if (!main.endsWith('.js')) throw new Error(`cannot read npm start's command: ${pkg.scripts.start}`);
  return { main, nodeArgs, env };
}
