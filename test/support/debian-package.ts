import { execFileSync } from 'node:child_process';

const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** The path of `command` on PATH, or undefined. */
export function onPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function aptGet(args: string[]): string | undefined {
  try {
    execFileSync('apt-get', args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: INSTALL_TIMEOUT_MS,
    });
    return undefined;
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    return (err.stderr?.toString().trim().split('\n').pop() ?? '') || err.message;
  }
}

/**
 * A tool a test needs from Debian's packages (Chromium, SoftHSM2): when `present` says it is missing,
 * one attempt to install `pkg` with apt-get (root only; the package lists updated once if the first
 * try fails). Returns undefined once present, else why it is not.
 */
export function ensureDebianPackage(pkg: string, present: () => boolean): string | undefined {
  if (present()) return undefined;
  if (process.getuid?.() !== 0) return `${pkg} is not installed and installing it needs root`;
  if (!onPath('apt-get')) return `${pkg} is not installed and there is no apt-get to install it`;
  const install = ['install', '-y', pkg];
  let failure = aptGet(install);
  if (failure) failure = aptGet(['update']) ?? aptGet(install);
  return present() ? undefined : `${pkg} is not installed and apt-get could not install it: ${failure}`;
}
