import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestService } from './test-service.js';

/**
 * Runs the admin CLI (clients/cli/main.ts) as an operator types it, against the test service at
 * CREDSERVICE_URL with its admin token. Resolves to the exit code and the JSON the CLI printed
 * (undefined when it printed nothing), with what it wrote to stderr so a failure shows its cause.
 */
export async function runAdminCli(t: TestService, ...args: string[]) {
  const parse = (out: string | undefined) =>
    out?.trim() && out.trim() !== 'undefined' ? JSON.parse(out) : undefined;
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'clients/cli/main.ts', ...args],
      { env: { ...process.env, CREDSERVICE_URL: t.baseUrl, ADMIN_TOKEN: t.adminToken } },
    );
    return { code: 0, body: parse(stdout), stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, body: parse(failed.stdout), stderr: failed.stderr };
  }
}
