import type { EntityManager } from '@mikro-orm/postgresql';
import type { TtlStore } from '../ephemeral/ttl-store.js';
import { entityFromRow, entityShape, selectColumns } from '../persistence/entity-rows.js';
import type { Sql } from '../persistence/sql.js';
import { PresentationSession } from './presentation-session.entity.js';

/** How long a session stays readable after it expires, so a late page or wallet is told "expired". */
export const GRACE_SECONDS = 300;

export type SessionKey = { id: string } | { encKid: string } | { state: string };

export interface FoundSession {
  session: PresentationSession;
  /** True for a session that lives in the TTL store (a sign-in nobody has completed yet). */
  ephemeral: boolean;
}

interface Outcome {
  status: PresentationSession['status'];
  failureReason: string | null;
  completedAt: string;
}

const ttlOf = (s: PresentationSession) =>
  Math.max(1, Math.ceil((s.expiresAt.getTime() - Date.now()) / 1000) + GRACE_SECONDS);

/**
 * Presentation sessions that anonymous requests start (the OpenID Connect sign-in): kept in the TTL
 * store instead of PostgreSQL until a verified presentation makes them worth a row. A failed outcome
 * stays in the store, so nothing an anonymous caller does adds rows or audit events.
 */
export class EphemeralSessions {
  constructor(readonly store: TtlStore) {}

  async save(session: PresentationSession): Promise<void> {
    const ttl = ttlOf(session);
    await this.store.set(`session:${session.id}`, JSON.stringify(session), ttl);
    await this.store.set(`session-state:${session.state}`, session.id, ttl);
    if (session.encKid) await this.store.set(`session-kid:${session.encKid}`, session.id, ttl);
  }

  async find(key: SessionKey): Promise<PresentationSession | undefined> {
    const id =
      'id' in key
        ? key.id
        : await this.store.get('state' in key ? `session-state:${key.state}` : `session-kid:${key.encKid}`);
    const raw = id ? await this.store.get(`session:${id}`) : undefined;
    if (!id || !raw) return undefined;
    const s = JSON.parse(raw) as PresentationSession & Record<string, unknown>;
    const session = { ...s, createdAt: new Date(s.createdAt), expiresAt: new Date(s.expiresAt) };
    const outcome = await this.store.get(`session-outcome:${id}`);
    if (!outcome) return session;
    const o = JSON.parse(outcome) as Outcome;
    return {
      ...session,
      status: o.status,
      failureReason: o.failureReason,
      completedAt: new Date(o.completedAt),
    };
  }

  /** Claims the one outcome a session gets: false when another response got there first. */
  async settle(session: PresentationSession, status: Outcome['status'], failureReason: string | null) {
    const outcome: Outcome = { status, failureReason, completedAt: new Date().toISOString() };
    return this.store.setIfAbsent(`session-outcome:${session.id}`, JSON.stringify(outcome), ttlOf(session));
  }

  /** Gives the outcome back when recording it failed, so the wallet may answer again. */
  async unsettle(sessionId: string): Promise<void> {
    await this.store.delete(`session-outcome:${sessionId}`);
  }
}

/**
 * A session by id, `enc_kid` or `state`: its row first, else the TTL store. With `sql` (the wallet's
 * hot endpoints) the row comes from a prepared statement as a plain object, not a managed entity:
 * nothing changes a found session through the unit of work (outcomes are conditional UPDATEs).
 */
export async function findSession(
  em: EntityManager,
  ephemeral: EphemeralSessions,
  key: SessionKey,
  sql?: Sql,
): Promise<FoundSession | undefined> {
  const row = sql ? await sessionRow(em, sql, key) : await em.findOne(PresentationSession, key);
  if (row) return { session: row, ephemeral: false };
  const stored = await ephemeral.find(key);
  return stored ? { session: stored, ephemeral: true } : undefined;
}

/** The session's row by a prepared statement, as the entity has it. */
async function sessionRow(em: EntityManager, sql: Sql, key: SessionKey) {
  const shape = entityShape(em, PresentationSession);
  const [by, value] =
    'id' in key ? ['id', key.id] : 'encKid' in key ? ['enc_kid', key.encKid] : ['state', key.state];
  const [row] = await sql.query<Record<string, unknown>>(
    `select ${selectColumns(shape)} from presentation_session where ${by} = $1 limit 1`,
    [value],
  );
  return row && entityFromRow<PresentationSession>(shape, row);
}
