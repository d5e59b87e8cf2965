import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestService } from './test-service.js';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function runOnce(t: TestService, args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'clients/cli/main.ts', ...args],
      { env: { ...process.env, CREDSERVICE_URL: t.baseUrl, ADMIN_TOKEN: t.adminToken } },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/**
 * Runs the admin CLI (clients/cli/main.ts) as an operator types it, against the test service at
 * CREDSERVICE_URL with its admin token. Resolves to the exit code and the JSON the CLI printed
 * (undefined when it printed nothing), with what it wrote to stdout and stderr so a failure shows
 * its cause. The CLI prints an answer for every request it makes (exit 0 or 1) or a usage error
 * (exit 2): an exit 1 with nothing on stdout is the runtime failing before the CLI ran (tsx
 * compiling under the full suite's load, seen about once in ten runs), and is tried once more,
 * saying so on the test's stderr.
 */
export async function runAdminCli(t: TestService, ...args: string[]) {
  const parse = (out: string) => (out.trim() && out.trim() !== 'undefined' ? JSON.parse(out) : undefined);
  let run = await runOnce(t, args);
  if (run.code === 1 && !run.stdout.trim()) {
    console.warn(`admin CLI ${args.join(' ')} exited 1 before printing; once more. stderr: ${run.stderr}`);
    run = await runOnce(t, args);
  }
  return { code: run.code, body: parse(run.stdout), stdout: run.stdout, stderr: run.stderr };
}
