import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { freePort } from '../../support/spawned-service.js';

/**
 * A redis-server of the fault test's own on a free port, without persistence: stopping it loses
 * everything it held, the worst case for the jobs handed to it.
 */
export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export async function startPrivateRedis(): Promise<PrivateRedis> {
  if (spawnSync('redis-server', ['--version']).error)
    throw new Error(
      'the fault tests start their own Redis: put redis-server on PATH (apt-get install redis-server)',
    );
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 100 && !(await accepting(port)); i++) await new Promise((r) => setTimeout(r, 50));
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    start,
  };
}
