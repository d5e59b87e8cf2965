import type { AuditEntry } from '../audit/audit-log.js';
import { statusChangeAudit } from '../issuance/change-credential-status.js';
import { isUuid } from '../persistence/uuid.js';
import { ScimError } from '../scim/scim-error.js';
import { getTenant } from '../tenants/tenant-service.js';
import { decideUserCredential, type SyncTrigger } from './decide-user-credential.js';
import { checkIfMatch } from './if-match.js';
import { type PlannedCredential, planUserCredential } from './plan-user-credential.js';
import { plannedState } from './provision-new-user.js';
import { readUserForChange } from './read-user-for-change.js';
import type { ScimCall } from './scim-call.js';
import type { UserChange } from './scim-user-service.js';
import type { SyncOutcome } from './sync-user-credential.js';
import { userChangeAudit } from './user-change-audit.js';
import { writeUserChange } from './user-change-statement.js';
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
 * gated write (writeUserChange). Undefined when the gate found the user or their credentials changed
 * since the read: the caller then takes the transactional way, which waits on the row lock.
 */
export async function changeUser(
  c: ScimCall,
  id: string,
  ifMatch: string | undefined,
  edit: UserEdit,
): Promise<UserChange | undefined> {
  const { em, services, tenantId, actor, sql } = c;
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
  const decision = await decideUserCredential(em, services, tenant, user, groupNames, trigger, {
    missingAttributes: 'refuse',
    live: snapshot.live,
  });

  const ending = decision.kind === 'end' || decision.kind === 'issue';
  const end = ending && Boolean(user.issuanceId);
  const revoked = end ? snapshot.liveCredentials : [];
  const reason = decision.kind === 'end' ? decision.reason : 'credential renewed';
  const audits: AuditEntry[] = revoked.map((r) =>
    statusChangeAudit(
      { id: r.id, tenantId, status: 'revoked', statusListId: r.list, statusIdx: r.idx },
      actor,
      reason,
    ),
  );
  if (end) Object.assign(user, { issuanceId: null, credentialPayloadHash: null, directCredential: null });
  let planned: PlannedCredential | undefined;
  let sync: SyncOutcome;
  if (decision.kind === 'issue') {
    planned = await planUserCredential(c, sql, tenant, user, decision, groupNames);
    audits.push(...planned.audits);
    sync = planned.sync;
  } else if (decision.kind === 'unchanged') sync = { outcome: 'unchanged', issued: [], revoked: [] };
  else {
    const outcome = decision.kind === 'end' && revoked.length ? 'revoked' : 'none';
    const missing = decision.kind === 'none' && decision.missing ? { missing: decision.missing } : {};
    sync = { outcome, reason: decision.reason, issued: [], revoked: [], ...missing };
  }
  sync.revoked = revoked.map((r) => r.id);
  user.credentialReason = sync.reason ?? null;
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
  const written = await writeUserChange(em, sql, {
    snapshot,
    user: resource ? user : null,
    end,
    planned,
    audits,
  });
  if (!written) return undefined;
  const state = planned
    ? plannedState(user, sync)
    : credentialStateOf(user, user.issuanceId ? snapshot.issuance : undefined);
  return { user, sync, state, groups: snapshot.groups };
}
