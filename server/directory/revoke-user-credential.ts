import type { EntityManager } from '@mikro-orm/postgresql';
import { endIssuance } from '../issuance/change-credential-status.js';
import { transactionSql } from '../persistence/sql.js';
import type { ScimUser } from './scim-user.entity.js';

/**
 * Ends the user's current credential in the caller's transaction: an offer not yet redeemed is
 * withdrawn, credentials issued from it are revoked (their status list bits flip). Returns the ids
 * of the credentials revoked. Each change is one conditional statement; nothing is read first.
 */
export async function revokeUserCredential(tx: EntityManager, user: ScimUser, actor: string, reason: string) {
  if (!user.issuanceId) return [];
  const revoked = await endIssuance(tx, user.issuanceId, actor, reason);
  user.issuanceId = null;
  user.credentialPayloadHash = null;
  user.directCredential = null;
  return revoked;
}

/**
 * Whether issuance `i` is live: a pending offer, a deferred one waiting for approval or approved until
 * collected, or issued with a credential still valid or suspended. One definition, for SQL that asks.
 */
export const liveIssuanceSql = (i: string) => `(
         (${i}.status in ('offered', 'redeemed') and ${i}.expires_at > now())
         or (${i}.status = 'awaiting_approval' and ${i}.approval_expires_at > now())
         or ${i}.status = 'approved'
         or (${i}.status = 'issued' and exists (
           select 1 from issued_credential c where c.issuance_id = ${i}.id and c.status in ('valid', 'suspended'))))`;

const liveSql = `select exists (select 1 from issuance i where i.id = $1 and ${liveIssuanceSql('i')}) as live`;

/** Whether the user holds a live credential or a pending offer (a waiting deferred one too): one query. */
export async function hasLiveCredential(
  tx: EntityManager,
  user: Pick<ScimUser, 'issuanceId'>,
): Promise<boolean> {
  if (!user.issuanceId) return false;
  const [row] = await transactionSql(tx).query<{ live: boolean }>(liveSql, [user.issuanceId]);
  return row?.live === true;
}
