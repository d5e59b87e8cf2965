// Compiles the service (server/, workers/, contract/, and the typed client the console calls the
// public API with, clients/integrator/src/) to dist/ for `npm start`: one JavaScript file
// per TypeScript file, no bundling, so paths and module boundaries stay as in the source. Type
// checking is `npm run typecheck`'s job; this only strips types (about half a second).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const sources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });

await build({
  entryPoints: ['server', 'workers', 'contract', 'clients/integrator/src'].flatMap(sources),
  outdir: 'dist',
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'node24',
  sourcemap: true,
  logLevel: 'warning',
});
