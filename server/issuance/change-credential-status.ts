import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound, Problem } from '../http/problem.js';
import { setCredentialStatus } from '../status-list/set-credential-status.js';
import { type CredentialStatus, IssuedCredential } from './issued-credential.entity.js';

export type StatusAction = 'revoke' | 'suspend' | 'unsuspend';

const TRANSITIONS: Record<StatusAction, { from: CredentialStatus[]; to: CredentialStatus }> = {
  revoke: { from: ['valid', 'suspended'], to: 'revoked' },
  suspend: { from: ['valid'], to: 'suspended' },
  unsuspend: { from: ['suspended'], to: 'valid' },
};

const LIST_VALUE = { valid: 'valid', revoked: 'invalid', suspended: 'suspended' } as const;

/**
 * Moves a credential of the tenant to another status: the record, its status list bits (which the
 * status-list worker then publishes) and the audit event change in one transaction. Revocation is
 * final; repeating the current action is a no-op answered with the current status.
 */
export async function changeCredentialStatus(
  em: EntityManager,
  tenantId: string,
  credentialId: string,
  action: StatusAction,
  actor: string,
) {
  return em.transactional(async (tx) => {
    const credential = await tx.findOne(
      IssuedCredential,
      { id: credentialId, tenantId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!credential) throw notFound(`credential ${credentialId}`);
    const { from, to } = TRANSITIONS[action];
    if (credential.status !== to && !from.includes(credential.status)) {
      throw new Problem(
        409,
        'invalid-status-transition',
        'Conflict',
        `a ${credential.status} credential cannot be ${action}ed`,
      );
    }
    await applyStatusAction(tx, credential, action, actor);
    return credential;
  });
}

/**
 * Applies a status action to a credential in the caller's transaction, when the transition is
 * allowed; returns whether anything changed. The caller holds the credential row.
 */
export async function applyStatusAction(
  tx: EntityManager,
  credential: IssuedCredential,
  action: StatusAction,
  actor: string,
  reason?: string,
): Promise<boolean> {
  const { from, to } = TRANSITIONS[action];
  if (!from.includes(credential.status)) return false;
  credential.status = to;
  await setCredentialStatus(
    tx,
    { listId: credential.statusListId, idx: credential.statusIdx },
    LIST_VALUE[to],
  );
  await tx.flush();
  await appendAuditEvent(tx, {
    tenantId: credential.tenantId,
    actor,
    action: `credential.${to === 'valid' ? 'unsuspended' : to}`,
    subject: credential.id,
    details: {
      status_list: credential.statusListId,
      idx: credential.statusIdx,
      ...(reason ? { reason } : {}),
    },
  });
  return true;
}
