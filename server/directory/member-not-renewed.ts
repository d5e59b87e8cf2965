import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditEntry } from '../audit/audit-log.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { grantedPowers } from './credential-payload.js';
import { provisioningOf } from './provisioning-settings.js';
import type { SyncOutcome } from './sync-user-credential.js';

/**
 * The rule for a member of a group change whose credential could not be rebuilt (a required mapped
 * attribute missing), one definition for both ways a group change is written (change-group.ts in one
 * statement, resync-group-members.ts in a transaction). The membership stands; the member's current
 * credential is revoked only when the change altered their powers: it must not keep powers the
 * directory took away, nor be lost over a change that did not touch what it says.
 */

/** Why the credential is revoked, in the status change's audit event. */
export const POWERS_CHANGED_REASON = 'powers changed; no credential could be issued';

/**
 * Whether the change from `groupsBefore` to `groupsAfter` altered the powers the tenant's credential
 * grants. Reads the provisioning and configuration (node caches) on first use only.
 */
export function powersChange(em: EntityManager, tenantId: string) {
  let powersOf: Promise<(names: string[]) => string> | undefined;
  const load = async () => {
    const provisioning = await provisioningOf(em, tenantId);
    const configuration = await findConfiguration(em, provisioning.configurationId ?? '');
    return (names: string[]) =>
      JSON.stringify(configuration ? grantedPowers(provisioning, configuration, names) : []);
  };
  return async (groupsBefore: string[], groupsAfter: string[]) => {
    powersOf ??= load();
    const powers = await powersOf;
    return powers(groupsBefore) !== powers(groupsAfter);
  };
}

/**
 * What is recorded for such a member once their credential was revoked (`revoked`: its credentials)
 * or left: the reason kept on the user, their entry in the group event's `failed`, and their own
 * `scim.user.credential_not_renewed` event.
 */
export function memberNotRenewed(m: {
  tenantId: string;
  actor: string;
  groupId: string;
  userId: string;
  sync: Pick<SyncOutcome, 'reason' | 'missing'>;
  revoked: string[];
}): { credentialReason: string; failure: { user: string; reason: string }; audit: AuditEntry } {
  const reason = m.sync.reason ?? '';
  return {
    credentialReason: m.revoked.length
      ? `${reason}; the credential was revoked, as the group change altered its powers`
      : `${reason}; the credential was not renewed after a group change`,
    failure: { user: m.userId, reason },
    audit: {
      tenantId: m.tenantId,
      actor: m.actor,
      action: 'scim.user.credential_not_renewed',
      subject: m.userId,
      details: { group: m.groupId, reason, missing: m.sync.missing, revoked: m.revoked },
    },
  };
}
