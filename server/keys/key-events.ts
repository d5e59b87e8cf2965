import type { EntityManager } from '@mikro-orm/postgresql';
import type { KEY_EVENT_ACTIONS } from '../../contract/admin/signing-key.js';
import type { Orm } from '../persistence/orm.js';
import type { KeyPurpose } from './signing-key.entity.js';

export type KeyEventAction = (typeof KEY_EVENT_ACTIONS)[number];

export interface KeyEvent {
  kid: string;
  purpose: KeyPurpose;
  action: KeyEventAction;
  /** `admin` for the admin API, `service` for what a node does at start. */
  actor: string;
  details?: Record<string, unknown>;
}

export interface RecordedKeyEvent extends Required<KeyEvent> {
  id: number;
  createdAt: Date;
}

/** Records a key event in the transaction of the change it describes (none for a rolled-back one). */
export async function recordKeyEvent(tx: EntityManager, event: KeyEvent): Promise<void> {
  await tx.execute(
    'insert into signing_key_event (kid, purpose, action, actor, details) values (?, ?, ?, ?, ?)',
    [event.kid, event.purpose, event.action, event.actor, JSON.stringify(event.details ?? {})],
  );
}

/** Every key event, oldest first; of one key when `kid` is given. */
export async function listKeyEvents(orm: Orm, kid?: string): Promise<RecordedKeyEvent[]> {
  const rows = await orm.em.fork().execute<
    {
      id: string;
      kid: string;
      purpose: KeyPurpose;
      action: KeyEventAction;
      actor: string;
      details: Record<string, unknown>;
      created_at: Date;
    }[]
  >(
    `select id, kid, purpose, action, actor, details, created_at from signing_key_event
     ${kid ? 'where kid = ?' : ''} order by id`,
    kid ? [kid] : [],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    kid: r.kid,
    purpose: r.purpose,
    action: r.action,
    actor: r.actor,
    details: r.details,
    createdAt: new Date(r.created_at),
  }));
}
