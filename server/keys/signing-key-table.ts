import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidate } from '../cache/node-caches.js';
import { notFound } from '../domain-errors.js';
import type { Orm } from '../persistence/orm.js';
import { type KeyPurpose, SigningKey } from './signing-key.entity.js';

/** The invalidation topic of the `signing_key` table (see server/cache): every node reloads its ring. */
export const KEYS_CHANGED = 'signing-key';

/** Orders the writers of one purpose's keys (generation, rotation, certificates) across nodes. */
export const lockPurpose = (tx: EntityManager, purpose: KeyPurpose) =>
  tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`signing-key:${purpose}`]);

/**
 * Changes the row of `kid` (404 when there is none) in `change`'s transaction, under its purpose's
 * lock, and tells every node at commit.
 */
export async function changeSigningKey(
  orm: Orm,
  kid: string,
  change: (row: SigningKey, tx: EntityManager) => Promise<void>,
): Promise<SigningKey> {
  const found = await orm.em.fork().findOne(SigningKey, { kid });
  if (!found) throw notFound(`signing key ${kid}`);
  return orm.em.fork().transactional(async (tx) => {
    await lockPurpose(tx, found.purpose);
    const row = (await tx.findOne(SigningKey, { kid })) as SigningKey;
    await change(row, tx);
    await tx.flush();
    await invalidate(tx, KEYS_CHANGED);
    return row;
  });
}
