import { isUuid } from '../persistence/uuid.js';
import { ScimError } from '../scim/scim-error.js';
import { getTenant } from '../tenants/tenant-service.js';
import type { SyncTrigger } from './decide-user-credential.js';
import { writeDirectoryChange } from './directory-change-statement.js';
import { checkIfMatch } from './if-match.js';
import { planUserChange } from './plan-user-change.js';
import { plannedState } from './provision-new-user.js';
import { readUserForChange } from './read-user-for-change.js';
import type { ScimCall } from './scim-call.js';
import type { UserChange } from './scim-user-service.js';
import { userChangeAudit } from './user-change-audit.js';
import { setUserColumns } from './user-columns.js';
import { credentialStateOf } from './user-credential-state.js';

/** What a PUT, PATCH or DELETE does to the user read: the new resource (null: deleted) and its action. */
export type UserEdit = (user: UserChange['user']) => {
  resource: Record<string, unknown> | null;
  changed: boolean;
  action: string;
  trigger: SyncTrigger;
};

/**
 * A change to an existing user without an ORM transaction: one read (readUserForChange), the
 * provisioning rules decided in memory (a renewal's credential signed now, for direct delivery), one
 * gated write (writeDirectoryChange). Undefined when the gate found the user or their credentials changed
 * since the read: the caller then takes the transactional way, which waits on the row lock.
 */
export async function changeUser(
  c: ScimCall,
  id: string,
  ifMatch: string | undefined,
  edit: UserEdit,
): Promise<UserChange | undefined> {
  const { em, tenantId, actor, sql } = c;
  if (!sql || em.isInTransaction()) return undefined;
  const notFound = new ScimError(404, `User ${id} not found`);
  if (!isUuid(id)) throw notFound;
  const snapshot = await readUserForChange(em, sql, tenantId, id);
  if (!snapshot) throw notFound;
  checkIfMatch(ifMatch, snapshot.user.version);
  const { resource, changed, action, trigger } = edit(snapshot.user);
  const user = { ...snapshot.user };
  if (resource && changed) {
    setUserColumns(user, resource);
    user.updatedAt = new Date();
    user.version += 1;
  }
  const tenant = await getTenant(em, tenantId);
  const groupNames = trigger === 'remove' || !user.active ? [] : snapshot.groups.map((g) => g.displayName);
  const { write, sync, audits } = await planUserChange(c, sql, tenant, snapshot, user, groupNames, trigger, {
    missingAttributes: 'refuse',
  });
  audits.push(
    trigger === 'remove'
      ? {
          tenantId,
          actor,
          action,
          subject: id,
          details: { credential: sync.outcome, issued: [], revoked: sync.revoked },
        }
      : userChangeAudit(user, sync, action, actor),
  );
  const written = await writeDirectoryChange(em, sql, {
    tenantId,
    users: [{ ...write, user: resource ? user : null }],
    audits,
  });
  if (!written) return undefined;
  const state = write.planned
    ? plannedState(user, sync)
    : credentialStateOf(user, user.issuanceId ? snapshot.issuance : undefined);
  return { user, sync, state, groups: snapshot.groups };
}
