import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * One node of the service as its own process (`node --import tsx server/main.ts`, ROLE=api or
 * worker), its log appended to a file; killed with SIGKILL and started again as a supervisor would.
 */
export interface ServiceProcess {
  start(): Promise<void>;
  /** SIGKILL: no shutdown, no draining, whatever it held in flight is cut off. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

export function serviceProcess(
  name: string,
  env: Record<string, string>,
  logFile: string,
  /** When the node can work; by default, once it logged that it started. */
  ready?: () => Promise<boolean>,
): ServiceProcess {
  let child: ChildProcess | undefined;
  let started = false;
  const isReady = ready ?? (async () => started);
  const log = createWriteStream(logFile, { flags: 'a' });
  const exit = (signal: NodeJS.Signals) => async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  return {
    async start() {
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started = false;
      child.stdout?.on('data', (d: Buffer) => {
        if (d.includes('service started')) started = true;
      });
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
      const deadline = Date.now() + 60_000;
      while (!(await isReady().catch(() => false))) {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see ${logFile}`);
        if (Date.now() > deadline) throw new Error(`${name} did not become ready; see ${logFile}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    kill: exit('SIGKILL'),
    stop: exit('SIGTERM'),
  };
}
