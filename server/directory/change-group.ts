import type { AuditEntry } from '../audit/audit-log.js';
import { isUuid } from '../persistence/uuid.js';
import { ScimError } from '../scim/scim-error.js';
import { getTenant } from '../tenants/tenant-service.js';
import { type UserWrite, writeDirectoryChange } from './directory-change-statement.js';
import { groupPart } from './group-change-sql.js';
import { checkIfMatch } from './if-match.js';
import { memberNotRenewed, POWERS_CHANGED_REASON, powersChange } from './member-not-renewed.js';
import { planGroupMembers } from './plan-group-members.js';
import { endFamily, planUserChange } from './plan-user-change.js';
import { type GroupSnapshot, readGroupForChange } from './read-group-for-change.js';
import { readUsersForChange } from './read-user-for-change.js';
import type { ScimCall } from './scim-call.js';
import type { ScimGroup } from './scim-group.entity.js';

/** Beyond this many members to re-evaluate, a group change takes the transactional way (one statement's size). */
const MAX_PLANNED_MEMBERS = 100;

/** What a group write does to the group read: its new resource (null: deleted), or no change at all. */
export type GroupEdit = (current: GroupSnapshot | undefined) => {
  resource: Record<string, unknown> | null;
  changed: boolean;
  action: string;
};

/**
 * A group's create, replace, patch or delete without an ORM transaction: the group read with its
 * members, then every user it touches read at once, the provisioning rules decided for each in memory
 * (group-derived powers: renewed, revoked or reported as resyncGroupMembers does in a transaction), and
 * one gated statement (writeDirectoryChange) writes the group, its membership, the users' credentials
 * and the audit events. Undefined when the gate failed or the change touches more members than one
 * statement should carry: the caller then takes the transactional way.
 */
export async function changeGroup(
  c: ScimCall,
  id: string | undefined,
  ifMatch: string | undefined,
  edit: GroupEdit,
): Promise<ScimGroup | undefined> {
  const { em, tenantId, actor, sql } = c;
  if (!sql || em.isInTransaction()) return undefined;
  let current: GroupSnapshot | undefined;
  if (id !== undefined) {
    const notFound = new ScimError(404, `Group ${id} not found`);
    if (!isUuid(id)) throw notFound;
    current = await readGroupForChange(em, sql, tenantId, id);
    if (!current) throw notFound;
    checkIfMatch(ifMatch, current.group.version);
  }
  const { resource, changed, action } = edit(current);
  if (current && !changed) return current.group;
  const plan = planGroupMembers(tenantId, current, resource);
  const snapshots = await readUsersForChange(em, sql, tenantId, plan.candidates);
  const members = plan.membersOf(snapshots);
  if (members.affected.length > MAX_PLANNED_MEMBERS) return undefined;

  const tenant = await getTenant(em, tenantId);
  const powersChanged = powersChange(em, tenantId);
  const users: UserWrite[] = [];
  const audits: AuditEntry[] = [];
  const renewed: string[] = [];
  const failed: { user: string; reason: string }[] = [];
  for (const userId of members.affected) {
    const snapshot = snapshots.get(userId);
    if (!snapshot) continue;
    const user = { ...snapshot.user };
    const groupsBefore = snapshot.groups.map((g) => g.displayName);
    const groupsAfter = [
      ...snapshot.groups.filter((g) => g.id !== plan.group.id).map((g) => g.displayName),
      ...(members.wanted.includes(userId) && plan.group.after ? [plan.group.after.displayName] : []),
    ];
    const planned = await planUserChange(c, sql, tenant, snapshot, user, groupsAfter, 'update', {
      missingAttributes: 'report',
    });
    audits.push(...planned.audits);
    if (planned.sync.outcome === 'renewed' || planned.sync.outcome === 'issued') renewed.push(userId);
    if (planned.sync.missing) {
      const ending = Boolean(user.issuanceId) && (await powersChanged(groupsBefore, groupsAfter));
      const ended = ending
        ? endFamily(c, snapshot, user, POWERS_CHANGED_REASON)
        : { revoked: [], audits: [] };
      if (ending) planned.write.end = true;
      audits.push(...ended.audits);
      const notRenewed = memberNotRenewed({
        tenantId,
        actor,
        groupId: plan.group.id,
        userId,
        sync: planned.sync,
        revoked: ended.revoked,
      });
      user.credentialReason = notRenewed.credentialReason;
      failed.push(notRenewed.failure);
      audits.push(notRenewed.audit);
    }
    users.push({ ...planned.write, user: changedCredential(snapshot.user, user) ? user : undefined });
  }
  audits.push({
    tenantId,
    actor,
    action,
    subject: plan.group.id,
    details: {
      ...(resource ? { added: members.added } : {}),
      removed: members.removed,
      renewed,
      ...(failed.length ? { failed } : {}),
      ...(members.ignored.length ? { ignored: members.ignored.slice(0, 50) } : {}),
    },
  });
  const group = groupPart(em, {
    before: current?.group,
    after: plan.group.after,
    added: members.added.map((userId) => ({ userId, display: plan.displayOf(userId) })),
    removed: members.removed,
  });
  const written = await writeDirectoryChange(em, sql, { tenantId, users, group, audits });
  if (!written) return undefined;
  return (plan.group.after ?? current?.group) as ScimGroup;
}

/** The credential columns a group change may alter: the user row is written only when one did. */
const changedCredential = (before: UserWrite['snapshot']['user'], after: UserWrite['snapshot']['user']) =>
  before.issuanceId !== after.issuanceId ||
  before.credentialPayloadHash !== after.credentialPayloadHash ||
  before.directCredential !== after.directCredential ||
  before.credentialReason !== after.credentialReason;
