import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';

/** Tries to bind `port` on 127.0.0.1; resolves whether it was free. */
const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A port that is free now, for a service that binds it seconds later (after its migrations). Chosen
 * at random below the kernel's ephemeral range (32768 and up on Linux), where the port-0 listeners
 * every test starts (SMTP catchers, list servers, stubs) are put: they cannot take it meanwhile.
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
  throw new Error('no free port between 20000 and 32000');
}

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
