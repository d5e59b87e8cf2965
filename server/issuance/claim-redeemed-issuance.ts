import type { EntityManager } from '@mikro-orm/postgresql';
import { transactionSql } from '../persistence/sql.js';
import type { Issuance } from './issuance.entity.js';
import type { IssuanceToIssue } from './issue-credentials.js';

/** Why a redeemed issuance could not be claimed: it was issued already, or it is not (or no longer) redeemed. */
type UnclaimedReason = 'issued' | 'not-redeemed';

/**
 * Claims a redeemed issuance for issuing, in the caller's transaction: one conditional UPDATE that
 * marks it issued, erases its payload and returns that payload. Of two requests racing for one
 * issuance the second waits on the row and then finds it issued; nothing is read first and locked
 * after. A rolled-back transaction leaves the issuance redeemable with its payload.
 */
export async function claimRedeemedIssuance(
  tx: EntityManager,
  issuanceId: string,
): Promise<IssuanceToIssue | UnclaimedReason> {
  const sql = transactionSql(tx);
  const [claimed] = await sql.query<{ tenant_id: string; payload: Record<string, unknown> | null }>(
    `update issuance i set status = 'issued', issued_at = now(), payload = null
     from (select id, payload from issuance where id = $1 for update) old
     where i.id = old.id and i.status = 'redeemed' and not i.approval_required
     returning i.tenant_id, old.payload`,
    [issuanceId],
  );
  if (claimed) return { id: issuanceId, tenantId: claimed.tenant_id, payload: claimed.payload };
  const [current] = await sql.query<Pick<Issuance, 'status'>>('select status from issuance where id = $1', [
    issuanceId,
  ]);
  return current?.status === 'issued' ? 'issued' : 'not-redeemed';
}
