import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TtlStore } from '../ephemeral/ttl-store.js';

export type ConsoleRole = 'administrator' | 'auditor' | 'operator';

/** Who signed in, from the presented credential (or `operator` for the deployment's operator). */
export interface ConsolePerson {
  name: string;
  email: string | null;
  /** The issued credential presented at sign-in (this service's id), when an employee. */
  credentialId: string | null;
}

/** The tenant tokens a session holds, sealed: the browser never sees them. */
export interface SessionTokens {
  integratorId: string;
  integrator: string;
  scimId: string;
  scim: string;
}

export interface ConsoleSession {
  role: ConsoleRole;
  /** The employee's tenant; null for the operator, who may open any. */
  tenantId: string | null;
  person: ConsolePerson;
  /** Per tenant, the API tokens minted for this session (sealed). */
  tokens: Record<string, SessionTokens>;
  csrf: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface SessionLimits {
  idleSeconds: number;
  maxSeconds: number;
}

const keyOf = (id: string) => `console:session:${createHash('sha256').update(id).digest('base64url')}`;
const ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * Console sessions in the TTL store (Redis, or memory on the embedded default), keyed by the hash of
 * the cookie's random id so that a read of the store gives no usable cookie. The entry lives until
 * the absolute limit (when the session's tokens expire by themselves); the idle limit is checked on
 * each use, so that a session found idle too long is still there to have its tokens revoked.
 * `limits` is read at each use: a test shortens a running service's idle limit through it.
 */
export function consoleSessions(ttl: TtlStore, limits: SessionLimits) {
  const remaining = (s: ConsoleSession, now: number) =>
    Math.floor((s.createdAt + limits.maxSeconds * 1000 - now) / 1000);
  const save = async (id: string, s: ConsoleSession, now: number) => {
    const seconds = remaining(s, now);
    if (seconds > 0) await ttl.set(keyOf(id), JSON.stringify(s), seconds);
  };
  return {
    async create(fields: Omit<ConsoleSession, 'csrf' | 'createdAt' | 'lastSeenAt'>) {
      const id = randomBytes(32).toString('base64url');
      const now = Date.now();
      const session = {
        ...fields,
        csrf: randomBytes(32).toString('base64url'),
        createdAt: now,
        lastSeenAt: now,
      };
      await save(id, session, now);
      return { id, session };
    },
    /**
     * The live session of a cookie id, touched; undefined when unknown, idle too long or too old.
     * A session found idle too long is ended here and handed to `ended` (which revokes its tokens).
     */
    async load(
      id: string | undefined,
      ended?: (s: ConsoleSession) => Promise<void>,
    ): Promise<ConsoleSession | undefined> {
      if (!id || !ID.test(id)) return undefined;
      const raw = await ttl.get(keyOf(id));
      if (!raw) return undefined;
      const session = JSON.parse(raw) as ConsoleSession;
      const now = Date.now();
      if (now - session.lastSeenAt > limits.idleSeconds * 1000 || remaining(session, now) <= 0) {
        await ttl.delete(keyOf(id));
        await ended?.(session);
        return undefined;
      }
      session.lastSeenAt = now;
      await save(id, session, now);
      return session;
    },
    update: (id: string, s: ConsoleSession) => save(id, s, Date.now()),
    end: (id: string) => ttl.delete(keyOf(id)),
    /** When the session ends at the latest (its tokens expire then too). */
    deadline: (s: ConsoleSession) => new Date(s.createdAt + limits.maxSeconds * 1000),
  };
}

export type ConsoleSessions = ReturnType<typeof consoleSessions>;

/** Constant-time comparison of the form's CSRF token with the session's (both hashed first). */
export function csrfMatches(session: ConsoleSession, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const h = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(h(presented), h(session.csrf));
}
