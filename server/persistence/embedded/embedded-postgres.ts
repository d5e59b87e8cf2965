import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { claimDataDir, releaseDataDir } from './data-dir-lock.js';
import { postgresBinaries } from './postgres-binaries.js';
import { type ServerUser, serverUser } from './run-as-postgres-user.js';

export interface EmbeddedPostgres {
  url: string;
  dir: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server under `DATA_DIR/postgres`, started from the binaries shipped on npm and
 * stopped with the service. It listens on a free loopback port only (no unix socket), with a
 * password generated at first start and kept in `DATA_DIR/postgres.password` (mode 0600).
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedPostgres> {
  const dir = path.join(dataDir, 'postgres');
  const ownerFile = path.join(dataDir, 'postgres.owner');
  await fs.mkdir(dataDir, { recursive: true });
  await claimDataDir(dir, ownerFile);
  const user = await serverUser(dataDir, dir);
  const password = await passwordOf(path.join(dataDir, 'postgres.password'));
  const bin = await postgresBinaries();
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await initialise(bin.initdb, dir, password, user);
  const port = await freeLoopbackPort();
  const child = spawn(
    bin.postgres,
    ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // Its own process group: a Ctrl-C in the terminal reaches the service, which drains, then stops it.
    {
      ...user,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  await readyOrExit(child, logger);
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    dir,
    async stop() {
      process.off('exit', stopOnExit);
      await stopServer(child);
      await releaseDataDir(ownerFile);
    },
  };
}

async function passwordOf(file: string): Promise<string> {
  const existing = await fs.readFile(file, 'utf8').catch(() => '');
  if (existing.trim()) return existing.trim();
  const created = randomBytes(24).toString('hex');
  await fs.writeFile(file, `${created}\n`, { mode: 0o600 });
  return created;
}

async function initialise(initdb: string, dir: string, password: string, user: ServerUser) {
  const pwfile = path.join(os.tmpdir(), `credservice-pg-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (user.uid !== undefined) await fs.chown(pwfile, user.uid, user.gid ?? -1);
  try {
    const args = ['-D', dir, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8'];
    const child = spawn(initdb, [...args, '--locale=C'], { ...user, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${stderr.trim()}`);
  } finally {
    await fs.rm(pwfile, { force: true });
  }
}

function readyOrExit(child: ChildProcess, logger: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      log = (log + text).slice(-4000);
      for (const line of text.split('\n').filter(Boolean))
        logger.debug({ postgres: line }, 'embedded PostgreSQL');
      if (text.includes('ready to accept connections')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`embedded PostgreSQL exited (${code}) at start: ${log.trim()}`)),
    );
  });
}

/** Fast shutdown: open transactions roll back, the data stays consistent on disk. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGQUIT'), 15_000);
  await exited;
  clearTimeout(timer);
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
