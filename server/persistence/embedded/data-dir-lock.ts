import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Who owns an embedded PostgreSQL data directory. PostgreSQL's own `postmaster.pid` says whether a
 * server runs on it; our `owner.pid` beside it says which service node started that server. Together
 * they tell three cases apart: free, in use by another running node (refuse to start), or left
 * behind by a node that died without stopping its server (stop the orphan and take over).
 */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

async function readPid(file: string): Promise<number | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `the embedded database in ${dir} is in use by another running instance (pid ${pid}); ` +
        'stop it, or give this one another DATA_DIR',
    );
  }
}

/** Claims `dir` for this process, stopping a server orphaned by a crashed owner. */
export async function claimDataDir(dir: string, ownerFile: string): Promise<void> {
  const owner = await readPid(ownerFile);
  if (owner !== undefined && owner !== process.pid && alive(owner)) throw new DataDirInUseError(dir, owner);
  const postmaster = await readPid(path.join(dir, 'postmaster.pid'));
  if (postmaster !== undefined && alive(postmaster)) await stopOrphan(postmaster);
  await fs.writeFile(ownerFile, `${process.pid}\n`, { mode: 0o600 });
}

export async function releaseDataDir(ownerFile: string): Promise<void> {
  if ((await readPid(ownerFile)) === process.pid) await fs.rm(ownerFile, { force: true });
}

/** Fast shutdown (SIGINT) of a server whose owner is gone; waits until it has exited. */
async function stopOrphan(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`the orphaned embedded PostgreSQL (pid ${pid}) did not stop`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
