import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeyPurpose } from './signing-key.entity.js';

/** The invalidation topic of the `signing_key` table (see server/cache): every node reloads its ring. */
export const KEYS_CHANGED = 'signing-key';

/** Orders the writers of one purpose's keys (generation, rotation, certificates) across nodes. */
export const lockPurpose = (tx: EntityManager, purpose: KeyPurpose) =>
  tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`signing-key:${purpose}`]);
