import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A proof's `jti` is kept this long after use; longer than any `iat` window that accepts it. */
export const JTI_RETENTION_SECONDS = 180;

/**
 * Uses up the `jti` of a DPoP proof or client attestation PoP: true when it was not seen before.
 * One conditional insert in PostgreSQL, which every node shares: of two requests racing with one
 * proof exactly one gets true. `scope` keeps the kinds and keys apart (the same jti from two keys
 * are two proofs). Only hashes are stored; rows past their expiry are swept now and then.
 */
export async function useJtiOnce(em: EntityManager, scope: string, jti: string): Promise<boolean> {
  const hash = createHash('sha256').update(`${scope}\n${jti}`).digest('hex');
  const rows = await em.execute(
    `insert into oid4vci_proof_jti (jti_hash, expires_at) values (?, ?)
     on conflict (jti_hash) do nothing returning jti_hash`,
    [hash, new Date(Date.now() + JTI_RETENTION_SECONDS * 1000)],
  );
  if (Math.random() < 0.01) await em.execute('delete from oid4vci_proof_jti where expires_at < now()');
  return rows.length > 0;
}
