import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Oid4vciNonce } from './oid4vci-state.entity.js';

export const C_NONCE_TTL_SECONDS = 300;

const hash = (nonce: string) => createHash('sha256').update(nonce).digest('hex');

/** A fresh c_nonce (256 bits); only its hash is stored, until it is used or expires. */
export async function issueCNonce(em: EntityManager): Promise<string> {
  const nonce = randomBytes(32).toString('base64url');
  await em.insert(Oid4vciNonce, {
    nonceHash: hash(nonce),
    expiresAt: new Date(Date.now() + C_NONCE_TTL_SECONDS * 1000),
  });
  // Expired nonces are swept now and then by whoever asks for a new one.
  if (Math.random() < 0.01) await em.nativeDelete(Oid4vciNonce, { expiresAt: { $lt: new Date() } });
  return nonce;
}

/**
 * Uses up a c_nonce in the caller's transaction: true when it existed and had not expired. The row is
 * deleted, so of two requests racing with the same nonce only one gets it.
 */
export async function consumeCNonce(tx: EntityManager, nonce: string): Promise<boolean> {
  const rows = await tx.execute<{ expires_at: Date }[]>(
    'delete from oid4vci_nonce where nonce_hash = ? returning expires_at',
    [hash(nonce)],
  );
  const row = rows[0];
  return row !== undefined && new Date(row.expires_at) > new Date();
}
