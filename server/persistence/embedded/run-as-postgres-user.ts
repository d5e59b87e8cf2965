import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface ServerUser {
  uid?: number;
  gid?: number;
}

/**
 * PostgreSQL refuses to run as root. As root (containers, CI) the server runs as the system user
 * `postgres`, created when missing; the data directory is handed to it, and the directories above
 * it are made traversable (execute only: nothing in them becomes readable).
 */
export async function serverUser(dataDir: string, pgDir: string): Promise<ServerUser> {
  if (process.getuid?.() !== 0) return {};
  const { uid, gid } = postgresUser();
  await fs.mkdir(pgDir, { recursive: true, mode: 0o700 });
  await fs.chown(pgDir, uid, gid);
  for (let dir = dataDir; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const { mode } = await fs.stat(dir);
    if ((mode & 0o001) === 0) await fs.chmod(dir, mode | 0o001);
  }
  return { uid, gid };
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('sh', ['-c', 'getent group postgres >/dev/null || groupadd --system postgres']);
    execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}
