import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Spawned, signalService, spawnNpm, waitForHttp } from '../support/spawned-service.js';

/**
 * The README's Walkthrough, run verbatim: its `sh` blocks, in order, in one shell, against a
 * service started exactly as the README's first command starts it (`npm start` on embedded
 * defaults). If the README drifts from what the service does, this fails.
 */
const adminToken = 'readme-admin-token-of-at-least-32-chars';
let dataDir: string;
let port: number;
let service: Spawned;

/** The `sh` blocks of the README section that `heading` opens, up to the next `## ` heading. */
async function shellBlocks(heading: string): Promise<string[]> {
  const readme = await fs.readFile(path.resolve('README.md'), 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no section ${heading}`);
  const end = readme.indexOf('\n## ', start + heading.length + 2);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

function runShell(script: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-readme-'));
  port = await freePort();
  service = spawnNpm(['start'], { PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: adminToken });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, service);
}, 90_000);

afterAll(async () => {
  if (service.child.exitCode === null) signalService(service, 'SIGTERM');
  await service.exited;
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the README walkthrough', () => {
  it('runs verbatim against npm start, and every step does what the README says', async () => {
    const blocks = await shellBlocks('## Walkthrough');
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const { code, output } = await runShell(blocks.join('\n'), {
      CREDSERVICE_URL: `http://localhost:${port}`,
      ADMIN_TOKEN: adminToken,
      DATA_DIR: dataDir,
    });
    expect(code, output).toBe(0);
    // The presentation was verified, the OIDC login gave the mapped claims, SCIM offered a
    // credential, the email and direct modes delivered, and the revocation reached the wallet.
    expect(output).toMatch(/"status":"verified"/);
    expect(output).toMatch(/given_name: 'Ana'/);
    expect(output).toMatch(/"status":"offered"/);
    expect(output).toMatch(/SD-JWT VC with \d+ disclosures/);
    expect(output).toMatch(/INVALID/);
    // The deferred issuance: approved, then collected by the waiting wallet.
    expect(output).toMatch(/"status":"approved"/);
    expect(output).toMatch(/Luis/);
    // The issuance approved by Ana's presented approval: the waiting wallet collected Sara's credential.
    expect(output).toMatch(/["']Sara["']/);
    expect(output).toMatch(/"status":"issued"/);
    // The approval: approved by the wallet, its receipt valid offline.
    expect(output).toMatch(/"valid": true/);
    expect(output).toMatch(/PO-2026-0042/);
    // The employee mdoc: received as mso_mdoc, and its session verified with the mandatee alone.
    expect(output).toMatch(/"format": ?"mso_mdoc"/);
    expect(output).toMatch(
      /"status":"verified".*"claims":\{"eu\.credservice\.employee\.1":\{"mandatee":\{[^}]*\}\}\}/,
    );
  }, 240_000);

  it("runs the operators' guide to sign-in by presentation verbatim against the walkthrough's tenant", async () => {
    const guide = await fs.readFile(path.resolve('docs/operators-holder-sign-in-presentation.md'), 'utf8');
    const blocks = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    // The guide is run where an operator runs it, in the checkout; the rule file it writes goes after.
    const ruleFile = path.resolve('pid-rule.json');
    const { code, output } = await runShell(blocks.join('\n'), {
      CREDSERVICE_URL: `http://localhost:${port}`,
      ADMIN_TOKEN: adminToken,
      DATA_DIR: dataDir,
    }).finally(() => fs.rm(ruleFile, { force: true }));
    expect(code, output).toBe(0);
    // The rule was set (its DCQL query now asks for the matched claims), read back, and removed.
    expect(output).toMatch(/urn:eudi:pid:1/);
    expect(output).toMatch(/family_name/);
    expect(output).toMatch(/"dcql_query": \{\s*"credentials": \[/);
    expect(output).toMatch(/"path": \[\s*"family_name"\s*\]/);
    expect(output).toMatch(/"removed": "acme-corp"/);
  }, 60_000);
});
