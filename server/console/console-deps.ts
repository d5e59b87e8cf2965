import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { TtlStore } from '../ephemeral/ttl-store.js';
import type { KeyEncryption } from '../keys/key-encryption.js';
import type { ConsoleSessions } from './console-session.js';

/** What the console's routes are given: nothing is reached for. */
export interface ConsoleDeps {
  config: Pick<Config, 'publicUrl' | 'issuerUrl' | 'verifierUrl' | 'ADMIN_TOKEN'>;
  ttl: TtlStore;
  sealing: KeyEncryption;
  sessions: ConsoleSessions;
  logger: Logger;
  /** Cookies are Secure when the service's address is https (as the login page decides). */
  secure: boolean;
}

/** `__Host-` (bound to this host, path /, Secure) whenever the cookie can be Secure. */
export const sessionCookieName = (d: Pick<ConsoleDeps, 'secure'>) =>
  d.secure ? '__Host-console' : 'console';
export const signInCookieName = (d: Pick<ConsoleDeps, 'secure'>) =>
  d.secure ? '__Host-console-sign-in' : 'console-sign-in';

export const cookieOptions = (d: Pick<ConsoleDeps, 'secure'>, maxAgeMs?: number) => ({
  path: '/',
  httpOnly: true,
  secure: d.secure,
  // Lax: the sign-in comes back from the wallet's app as a top-level navigation; forms carry CSRF tokens.
  sameSite: 'lax' as const,
  ...(maxAgeMs ? { maxAge: maxAgeMs } : {}),
});

/** One cookie of the request's Cookie header, by name. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
