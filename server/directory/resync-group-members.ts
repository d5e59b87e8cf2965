import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { IssuanceServices } from '../issuance/create-issuance.js';
import { getTenant } from '../tenants/tenant-service.js';
import { memberNotRenewed, POWERS_CHANGED_REASON, powersChange } from './member-not-renewed.js';
import { revokeUserCredential } from './revoke-user-credential.js';
import { ScimUser } from './scim-user.entity.js';
import { syncUserCredential } from './sync-user-credential.js';
import { groupNamesOf } from './user-columns.js';

export interface MemberResync {
  /** Users who got a new credential. */
  renewed: string[];
  /** Users whose credential could not be rebuilt, and why. */
  failed: { user: string; reason: string }[];
}

/**
 * Re-evaluates the credential of each user a group change touched (group-derived powers), in the
 * caller's transaction. One member whose credential cannot be rebuilt (a required mapped attribute
 * missing) does not undo the change for everyone: the membership stands, and that member's failure
 * is recorded in an audit event and as the reason on the user (their credential extension shows
 * it). Their current credential is revoked only when the change altered their powers (the rule is
 * member-not-renewed.ts's, shared with the one-statement way, change-group.ts).
 * `groupsBefore` holds each user's group names before the change.
 */
export async function resyncGroupMembers(
  tx: EntityManager,
  s: IssuanceServices,
  group: { id: string; tenantId: string },
  userIds: string[],
  groupsBefore: Map<string, string[]>,
  actor: string,
): Promise<MemberResync> {
  const result: MemberResync = { renewed: [], failed: [] };
  if (!userIds.length) return result;
  const { tenantId } = group;
  const tenant = await getTenant(tx, tenantId);
  const powersChanged = powersChange(tx, tenantId);
  const users = await tx.find(
    ScimUser,
    { id: { $in: userIds }, tenantId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } },
  );
  for (const user of users) {
    const groups = await groupNamesOf((sql, params) => tx.execute(sql, params), user.id);
    const sync = await syncUserCredential(tx, s, tenant, user, groups, 'update', actor, {
      missingAttributes: 'report',
    });
    if (sync.outcome === 'renewed' || sync.outcome === 'issued') result.renewed.push(user.id);
    if (!sync.missing) continue;
    const revoked = (await powersChanged(groupsBefore.get(user.id) ?? [], groups))
      ? await revokeUserCredential(tx, user, actor, POWERS_CHANGED_REASON)
      : [];
    const notRenewed = memberNotRenewed({
      tenantId,
      actor,
      groupId: group.id,
      userId: user.id,
      sync,
      revoked,
    });
    user.credentialReason = notRenewed.credentialReason;
    result.failed.push(notRenewed.failure);
    await appendAuditEvent(tx, notRenewed.audit);
  }
  return result;
}
