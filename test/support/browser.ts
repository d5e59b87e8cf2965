import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/**
 * Debian's Chromium for browser tests, driven by playwright-core (which never downloads a browser of
 * its own). When none is installed, one attempt is made to install it with apt-get; when that fails
 * too, the caller gets the reason so that the test can say why it is skipped.
 */
export type ChromiumLookup = { path: string } | { path: undefined; reason: string };

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const INSTALL_TIMEOUT_MS = 5 * 60_000;

const installed = () =>
  CANDIDATES.find((p) => existsSync(p)) ??
  ['chromium', 'chromium-browser'].map(onPath).find((p): p is string => p !== undefined);

function onPath(command: string): string | undefined {
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

/** Finds Chromium, else installs Debian's `chromium` (root only), else says why there is none. */
export function findChromium(): ChromiumLookup {
  const found = installed();
  if (found) return { path: found };
  if (process.getuid?.() !== 0)
    return { path: undefined, reason: 'Chromium is not installed and installing it needs root' };
  if (!onPath('apt-get'))
    return { path: undefined, reason: 'Chromium is not installed and there is no apt-get to install it' };
  const install = ['install', '-y', 'chromium'];
  // The package lists may be missing or stale on a fresh machine: update once, then try again.
  let failure = aptGet(install);
  if (failure) failure = aptGet(['update']) ?? aptGet(install);
  const after = installed();
  if (after) return { path: after };
  return {
    path: undefined,
    reason: `Chromium is not installed and apt-get could not install it: ${failure}`,
  };
}

export interface HeadlessChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile, quiet: no background traffic, updates, sync or QUIC. */
export async function launchChromium(executablePath: string): Promise<HeadlessChromium> {
  const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'credservice-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await fs.rm(userDataDir, { recursive: true, force: true });
    },
  };
}
