import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuditEntry, appendAuditEvent } from '../audit/audit-log.js';
import { conflict, notFound } from '../domain-errors.js';
import { transactionSql } from '../persistence/sql.js';
import { isUuid } from '../persistence/uuid.js';
import { setCredentialStatus } from '../status-list/set-credential-status.js';
import { type CredentialStatus, IssuedCredential } from './issued-credential.entity.js';

export type StatusAction = 'revoke' | 'suspend' | 'unsuspend';

const TRANSITIONS: Record<StatusAction, { from: CredentialStatus[]; to: CredentialStatus }> = {
  revoke: { from: ['valid', 'suspended'], to: 'revoked' },
  suspend: { from: ['valid'], to: 'suspended' },
  unsuspend: { from: ['suspended'], to: 'valid' },
};

const LIST_VALUE = { valid: 'valid', revoked: 'invalid', suspended: 'suspended' } as const;

/** The statuses of an issuance that ending it withdraws: not yet redeemed to the end. */
export const WITHDRAWABLE_SQL = "('offered', 'redeemed', 'awaiting_approval', 'approved')";

/**
 * Moves a credential of the tenant to another status: the record, its status list entry (which the
 * status-list worker then publishes) and the audit event change in one transaction. Revocation is
 * final; repeating the current action is a no-op answered with the current status.
 *
 * The move is one conditional UPDATE … RETURNING (the row lock it takes is the credential's own);
 * only when it matches nothing is the credential read, to tell a no-op from a conflict or a 404.
 */
export async function changeCredentialStatus(
  em: EntityManager,
  tenantId: string,
  credentialId: string,
  action: StatusAction,
  actor: string,
  reason?: string,
) {
  return em.transactional(async (tx) => {
    const { from, to } = TRANSITIONS[action];
    const [moved] = isUuid(credentialId)
      ? await tx.execute(
          `update issued_credential set status = ? where id = ? and tenant_id = ? and status in (${from.map(() => '?').join(', ')})
           returning *`,
          [to, credentialId, tenantId, ...from],
        )
      : [];
    if (moved) {
      const credential = tx.map(IssuedCredential, moved);
      await recordStatusChange(tx, credential, actor, reason);
      return credential;
    }
    const credential = isUuid(credentialId)
      ? await tx.findOne(IssuedCredential, { id: credentialId, tenantId })
      : null;
    if (!credential) throw notFound(`credential ${credentialId}`);
    if (credential.status !== to) {
      throw conflict(`a ${credential.status} credential cannot be ${action}ed`, 'invalid-status-transition');
    }
    return credential;
  });
}

/**
 * Ends an issuance and its companions (credentials provisioned beside it) in the caller's
 * transaction: each offer, if not yet redeemed to the end (a deferred one also while it awaits
 * approval or collection), is withdrawn (its payload erased) and every credential issued from them
 * that is still valid or suspended is revoked, both by one statement; then each revoked credential's
 * status list entry and audit event. Returns the ids of the credentials revoked.
 */
export async function endIssuance(
  tx: EntityManager,
  issuanceId: string,
  actor: string,
  reason: string,
): Promise<string[]> {
  const { from, to } = TRANSITIONS.revoke;
  const moved = await transactionSql(tx).query<Record<string, unknown>>(
    `with ended as (
       select id from issuance where id = $2 or companion_of = $2
     ), withdrawn as (
       update issuance set status = 'withdrawn', payload = null, deferred_holder_keys = null
       where id in (select id from ended) and status in ${WITHDRAWABLE_SQL}
     )
     update issued_credential set status = $1
     where issuance_id in (select id from ended) and status = any($3::text[])
     returning id, tenant_id, status, status_list_id, status_idx`,
    [to, issuanceId, from],
  );
  for (const row of moved) {
    const credential = {
      id: row.id as string,
      tenantId: row.tenant_id as string,
      status: row.status as CredentialStatus,
      statusListId: row.status_list_id as string,
      statusIdx: row.status_idx as number,
    };
    await recordStatusChange(tx, credential, actor, reason);
  }
  return moved.map((row) => row.id as string);
}

/** The status list entry and the audit event of a credential whose record now has its new status. */
async function recordStatusChange(
  tx: EntityManager,
  credential: Pick<IssuedCredential, 'id' | 'tenantId' | 'status' | 'statusListId' | 'statusIdx'>,
  actor: string,
  reason?: string,
): Promise<void> {
  const to = credential.status;
  await setCredentialStatus(
    tx,
    { listId: credential.statusListId, idx: credential.statusIdx },
    LIST_VALUE[to],
  );
  await appendAuditEvent(tx, statusChangeAudit(credential, actor, reason));
}

/** The audit event of a credential moved to its (new) `status`. */
export const statusChangeAudit = (
  credential: Pick<IssuedCredential, 'id' | 'tenantId' | 'status' | 'statusListId' | 'statusIdx'>,
  actor: string,
  reason?: string,
): AuditEntry => ({
  tenantId: credential.tenantId,
  actor,
  action: `credential.${credential.status === 'valid' ? 'unsuspended' : credential.status}`,
  subject: credential.id,
  details: {
    status_list: credential.statusListId,
    idx: credential.statusIdx,
    ...(reason ? { reason } : {}),
  },
});
