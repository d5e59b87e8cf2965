import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import type { IssuanceServices } from '../issuance/create-issuance.js';
import { getTenant } from '../tenants/tenant-service.js';
import { grantedPowers } from './credential-payload.js';
import { provisioningOf } from './provisioning-settings.js';
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
 * it). Their current credential is revoked only when the change altered their powers: it must not
 * keep powers the directory took away, nor be lost over a change that did not touch what it says.
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
    const provisioning = await provisioningOf(tx, tenantId);
    const configuration = await findConfiguration(tx, provisioning.configurationId ?? '');
    const powers = (names: string[]) =>
      JSON.stringify(configuration ? grantedPowers(provisioning, configuration, names) : []);
    const powersChanged = powers(groupsBefore.get(user.id) ?? []) !== powers(groups);
    const revoked = powersChanged
      ? await revokeUserCredential(tx, user, actor, 'powers changed; no credential could be issued')
      : [];
    user.credentialReason = revoked.length
      ? `${sync.reason}; the credential was revoked, as the group change altered its powers`
      : `${sync.reason}; the credential was not renewed after a group change`;
    result.failed.push({ user: user.id, reason: sync.reason ?? '' });
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'scim.user.credential_not_renewed',
      subject: user.id,
      details: { group: group.id, reason: sync.reason, missing: sync.missing, revoked },
    });
  }
  return result;
}
