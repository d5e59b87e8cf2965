import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from './openapi.js';

/** `npm run openapi` writes openapi/openapi.json; with --check it fails when the file is stale. */
const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'openapi', 'openapi.json');
const fresh = `${JSON.stringify(buildOpenApi(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (current !== fresh) {
    console.error('openapi/openapi.json does not match the contract: run `npm run openapi` and commit it.');
    process.exit(1);
  }
  console.log('openapi/openapi.json matches the contract.');
} else {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, fresh);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
