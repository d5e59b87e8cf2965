import type { AuditEntry } from '../audit/audit-log.js';
import { statusChangeAudit } from '../issuance/change-credential-status.js';
import type { Sql } from '../persistence/sql.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { decideUserCredential, type SyncOptions, type SyncTrigger } from './decide-user-credential.js';
import type { UserWrite } from './directory-change-statement.js';
import { planUserCredential } from './plan-user-credential.js';
import type { UserSnapshot } from './read-user-for-change.js';
import type { ScimCall } from './scim-call.js';
import type { ScimUser } from './scim-user.entity.js';
import { type SyncOutcome, settledOutcome } from './sync-outcome.js';

/** A user's change as decided: the write, what became of the credential, the events before the user's own. */
export interface PlannedUserChange {
  write: UserWrite;
  sync: SyncOutcome;
  audits: AuditEntry[];
}

/** Ends what the snapshot's user holds: their family's live credentials revoked, with an event each. */
export function endFamily(c: ScimCall, snapshot: UserSnapshot, user: ScimUser, reason: string) {
  const revoked = snapshot.user.issuanceId ? snapshot.liveCredentials : [];
  Object.assign(user, { issuanceId: null, credentialPayloadHash: null, directCredential: null });
  return {
    revoked: revoked.map((r) => r.id),
    audits: revoked.map((r) =>
      statusChangeAudit(
        { id: r.id, tenantId: c.tenantId, status: 'revoked', statusListId: r.list, statusIdx: r.idx },
        c.actor,
        reason,
      ),
    ),
  };
}

/**
 * The provisioning rules (decideUserCredential) for a user as changed (`user`, from `snapshot`), with
 * the liveness the snapshot read: ends the family on deletion, deactivation or renewal, and plans the
 * renewed credential. As syncUserCredential does in a transaction, but nothing is written here.
 */
export async function planUserChange(
  c: ScimCall,
  sql: Sql,
  tenant: Tenant,
  snapshot: UserSnapshot,
  user: ScimUser,
  groupNames: string[],
  trigger: SyncTrigger,
  options: SyncOptions,
): Promise<PlannedUserChange> {
  const decision = await decideUserCredential(c.em, c.services, tenant, user, groupNames, trigger, {
    ...options,
    live: snapshot.live,
  });
  const ending = (decision.kind === 'end' || decision.kind === 'issue') && Boolean(user.issuanceId);
  const ended = ending
    ? endFamily(c, snapshot, user, decision.kind === 'end' ? decision.reason : 'credential renewed')
    : { revoked: [], audits: [] };
  const write = (planned?: UserWrite['planned']): UserWrite => ({ snapshot, user, end: ending, planned });
  if (decision.kind === 'issue') {
    const planned = await planUserCredential(c, sql, tenant, user, decision, groupNames);
    const sync = { ...planned.sync, revoked: ended.revoked };
    return { write: write(planned), sync, audits: [...ended.audits, ...planned.audits] };
  }
  const sync = settledOutcome(decision, ended.revoked);
  user.credentialReason = sync.reason ?? null;
  return { write: write(), sync, audits: ended.audits };
}
