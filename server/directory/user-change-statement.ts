import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuditEntry, statementAudit } from '../audit/audit-log.js';
import { WITHDRAWABLE_SQL } from '../issuance/change-credential-status.js';
import { entityShape, setColumnsSql } from '../persistence/entity-rows.js';
import { Params, type Sql } from '../persistence/sql.js';
import { ScimError } from '../scim/scim-error.js';
import { StatusType } from '../status-list/status-list-encoding.js';
import type { PlannedCredential } from './plan-user-credential.js';
import { plannedCredentialCtes } from './planned-credential-sql.js';
import type { UserSnapshot } from './read-user-for-change.js';
import { ScimUser } from './scim-user.entity.js';

export interface UserChangeWrite {
  snapshot: UserSnapshot;
  /** The user as changed (null: deleted). */
  user: ScimUser | null;
  /** End the family the snapshot saw: withdraw its offers, revoke its live credentials. */
  end: boolean;
  planned: PlannedCredential | undefined;
  audits: AuditEntry[];
}

/**
 * A change to a user as one statement, gated on what it was decided from: the user at the version
 * read, still pointing at the same issuance, whose family (it and its companions) has the statuses read
 * and exactly the live credentials read. The family's rows are locked first (`for update` re-reads a
 * row changed since the statement began), so a credential revoked or issued meanwhile fails the gate
 * instead of slipping past it. Then, only if the user row was written: the family ended, the
 * status list entries of the credentials revoked, the new credential and the audit events with the
 * webhooks they raise. Returns false when the gate held nothing: the caller decides again.
 */
export async function writeUserChange(em: EntityManager, sql: Sql, w: UserChangeWrite): Promise<boolean> {
  const params = new Params();
  const before = w.snapshot.user;
  const p = (v: unknown) => params.add(v);
  const old = p(before.issuanceId);
  const gate = `id = ${p(before.id)} and tenant_id = ${p(before.tenantId)} and version = ${p(before.version)}
       and issuance_id is not distinct from ${old}
       and (select coalesce(array_agg(id || ':' || status order by id), '{}') from family) = ${p(w.snapshot.family)}::text[]
       and (select coalesce(array_agg(id order by id), '{}') from live) = ${p(w.snapshot.liveCredentials.map((c) => c.id))}::uuid[]`;
  const write = w.user
    ? `update scim_user set ${setColumnsSql(entityShape(em, ScimUser), params, w.user, ['id', 'tenantId', 'createdAt'])} where ${gate}`
    : `delete from scim_user where ${gate}`;
  const audit = statementAudit(w.audits);
  const ctes = [
    `family as (select id, status from issuance where id = ${old} or companion_of = ${old} order by id for update)`,
    `live as (select c.id from issued_credential c where c.issuance_id in (select id from family)
       and c.status in ('valid', 'suspended') order by c.id for update)`,
    `u as (${write} returning id)`,
    ...(w.end
      ? [
          `withdrawn as (update issuance set status = 'withdrawn', payload = null, deferred_holder_keys = null
             where id in (select id from family) and status in ${WITHDRAWABLE_SQL} and exists (select 1 from u))`,
          `revoked as (update issued_credential set status = 'revoked'
             where id in (select id from live) and exists (select 1 from u) returning status_list_id, status_idx)`,
          `revoked_entries as (insert into status_list_change (list_id, idx, status)
             select status_list_id::uuid, status_idx, ${StatusType.INVALID} from revoked)`,
        ]
      : []),
    ...plannedCredentialCtes(em, params, w.planned, 'u'),
    audit.ctes(params, 'u'),
  ];
  let changed: number;
  try {
    const [row] = await sql.query<{ changed: number }>(
      `with ${ctes.join(', ')} select count(*)::int as changed from u`,
      params.values,
    );
    changed = row?.changed ?? 0;
  } catch (e) {
    if ((e as { constraint?: string }).constraint === 'scim_user_name_idx')
      throw new ScimError(409, 'userName is already taken in this tenant', 'uniqueness');
    throw e;
  }
  if (changed) await audit.committed(em);
  return changed > 0;
}
