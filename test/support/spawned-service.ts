import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs an npm script as a newcomer would, collecting its output. */
export function spawnNpm(args: string[], env: Record<string, string>): Spawned {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(DATABASE_URL|REDIS_URL|SMTP_URL|ADMIN_TOKEN|VITEST.*|NODE_ENV)$/.test(k),
    ),
  );
  const child = spawn('npm', args, {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/**
 * Sends `signal` to the node process `npm start` runs, as a process manager signalling the service
 * itself would; npm then exits with the service's own exit code.
 */
export function signalService(s: Spawned, signal: NodeJS.Signals): void {
  const pids = execFileSync('pgrep', ['-g', String(s.child.pid), '-f', '^node .*server/main[.](ts|js)'])
    .toString()
    .trim()
    .split('\n');
  for (const pid of pids) process.kill(Number(pid), signal);
}

export async function waitForHttp(url: string, timeoutMs: number, child?: Spawned): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url);
    } catch {
      if (Date.now() > deadline) throw new Error(`no answer from ${url}\n${child?.output() ?? ''}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
