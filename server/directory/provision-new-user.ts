import { statementAudit } from '../audit/audit-log.js';
import { entityShape, insertRowSql } from '../persistence/entity-rows.js';
import { Params, type Sql } from '../persistence/sql.js';
import { ScimError } from '../scim/scim-error.js';
import { getTenant } from '../tenants/tenant-service.js';
import { decideUserCredential } from './decide-user-credential.js';
import { type PlannedCredential, planUserCredential } from './plan-user-credential.js';
import { plannedCredentialCtes } from './planned-credential-sql.js';
import type { ScimCall } from './scim-call.js';
import { ScimUser } from './scim-user.entity.js';
import { settledOutcome } from './sync-outcome.js';
import type { SyncOutcome } from './sync-user-credential.js';
import { userChangeAudit } from './user-change-audit.js';
import { newScimUser } from './user-columns.js';
import type { CredentialState } from './user-credential-state.js';

/** What a new user's POST wrote: the user, the outcome for the audit log, and its credential state. */
export interface NewUser {
  user: ScimUser;
  sync: SyncOutcome;
  state: CredentialState;
}

/**
 * POST /Users as one statement and no transaction: the provisioning rules decide in memory (from
 * the node's caches; a new user holds nothing to look up), a direct delivery's credential is signed
 * first (its status entry drawn from the process's reserved block), then one INSERT with CTEs writes
 * the user, its issuance and those provisioned beside it, the credential, the mails with their
 * outbox rows, the audit events and the webhook deliveries they raise — all or nothing. A userName
 * already taken fails the statement on the unique index: nothing is written (409 uniqueness), and a
 * credential signed for it never leaves the process.
 */
export async function provisionNewUser(
  c: ScimCall,
  sql: Sql,
  resource: Record<string, unknown>,
): Promise<NewUser> {
  const { em, services, tenantId, actor } = c;
  const tenant = await getTenant(em, tenantId);
  const user = newScimUser(tenantId, resource);
  const decision = await decideUserCredential(em, services, tenant, user, [], 'provision');
  let planned: PlannedCredential | undefined;
  let sync: SyncOutcome;
  if (decision.kind === 'issue') {
    planned = await planUserCredential(c, sql, tenant, user, decision, []);
    sync = planned.sync;
  } else {
    // Created inactive ('end', nothing to revoke yet) or without a credential: the reason is kept.
    sync = settledOutcome(decision, []);
    user.credentialReason = sync.reason ?? null;
  }
  const audit = statementAudit([
    ...(planned?.audits ?? []),
    userChangeAudit(user, sync, 'scim.user.created', actor),
  ]);
  const params = new Params();
  const ctes = [
    `u as (${insertRowSql(entityShape(em, ScimUser), params, user)} returning id)`,
    ...plannedCredentialCtes(em, params, planned ? [planned] : []),
    audit.ctes(params, 'u'),
  ];
  try {
    await sql.query(`with ${ctes.join(', ')} select count(*)::int as users from u`, params.values);
  } catch (e) {
    // A taken userName is the 409 it always was.
    if ((e as { constraint?: string }).constraint === 'scim_user_name_idx')
      throw new ScimError(409, 'userName is already taken in this tenant', 'uniqueness');
    throw e;
  }
  await audit.committed(em);
  return { user, sync, state: plannedState(user, sync) };
}

/** The credential state of a user whose change this process planned, known without reading it back. */
export function plannedState(user: ScimUser, sync: SyncOutcome): CredentialState {
  const status = !sync.offerId ? 'none' : sync.issued.length ? 'valid' : 'offered';
  return {
    status,
    ...(user.issuanceId ? { issuanceId: user.issuanceId } : {}),
    credentialIds: sync.issued,
    ...(user.credentialReason ? { reason: user.credentialReason } : {}),
  };
}
