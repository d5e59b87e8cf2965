import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { ensureDebianPackage, onPath } from './debian-package.js';

/**
 * Debian's Chromium for browser tests, driven by playwright-core (which never downloads a browser of
 * its own). When none is installed, one attempt is made to install it with apt-get; when that fails
 * too, the caller gets the reason so that the test can say why it is skipped.
 */
export type ChromiumLookup = { path: string } | { path: undefined; reason: string };

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const installed = () =>
  CANDIDATES.find((p) => existsSync(p)) ??
  ['chromium', 'chromium-browser'].map(onPath).find((p): p is string => p !== undefined);

/**
 * Finds Chromium, else installs Debian's `chromium` (root only), else says why there is none. On CI
 * (`CI=true`) a missing Chromium is an error, as a missing SoftHSM2 is: the browser tests would
 * otherwise be skipped and the run still pass.
 */
export function findChromium(): ChromiumLookup {
  const missing = ensureDebianPackage('chromium', () => installed() !== undefined);
  const found = installed();
  if (!found && process.env.CI === 'true')
    throw new Error(`Chromium is missing: ${missing ?? 'Chromium is not installed'}`);
  return found ? { path: found } : { path: undefined, reason: missing ?? 'Chromium is not installed' };
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
