import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ProbeSnapshot } from './process-probe.js';

const probeModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'process-probe.ts');

export interface ProbedProcess {
  child: ChildProcess;
  pid: number;
  probe(): Promise<ProbeSnapshot>;
  /** CPU profile of what runs between start and stop only, written to `file` (window-profiler.ts). */
  profile(command: 'start' | 'stop', file?: string): Promise<void>;
  /** SIGTERM, then waits for the exit (which is when a --cpu-prof profile is written). */
  stop(): Promise<void>;
}

/**
 * A benchmarked Node process of its own (so that the load driver and it do not share an event loop),
 * with the probe loaded and an IPC channel to ask it for statement counts and CPU time. A TypeScript
 * script runs under tsx; with `compiledProbe` (compiled-service.ts) a JavaScript one runs as is.
 */
export function spawnProbed(
  script: string,
  env: Record<string, string | undefined>,
  nodeArgs: string[] = [],
  compiledProbe?: string,
): ProbedProcess {
  const loaders = compiledProbe
    ? ['--import', pathToFileURL(compiledProbe).href]
    : ['--import', 'tsx', '--import', probeModule];
  const child = spawn(process.execPath, [...nodeArgs, ...loaders, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${script}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: child.pid,
    probe: () =>
      new Promise<ProbeSnapshot>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${script} did not answer the probe`)), 10_000);
        const onMessage = (m: unknown) => {
          if (typeof m !== 'object' || m === null || !('probe' in m)) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve((m as { probe: ProbeSnapshot }).probe);
        };
        child.on('message', onMessage);
        child.send('probe');
      }),
    profile: (command, file) =>
      new Promise<void>((resolve, reject) => {
        const onMessage = (m: unknown) => {
          if (typeof m !== 'object' || m === null || !('profiled' in m)) return;
          child.off('message', onMessage);
          const answer = String((m as { profiled: unknown }).profiled);
          if (answer.startsWith('failed')) reject(new Error(answer));
          else resolve();
        };
        child.on('message', onMessage);
        child.send({ profile: command, ...(file ? { file } : {}) });
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
