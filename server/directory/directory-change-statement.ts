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

/** What a change does to one user it read. */
export interface UserWrite {
  snapshot: UserSnapshot;
  /** The user to store (null: delete them; undefined: nothing of theirs changed, only checked). */
  user: ScimUser | null | undefined;
  /** End the issuance family the snapshot saw: withdraw its offers, revoke its live credentials. */
  end: boolean;
  planned: PlannedCredential | undefined;
}

/** The group side of a change (change-group.ts): its row locked and checked, its writes after the gate. */
export interface GroupPart {
  ctes(params: Params, gate: string): { locks: string[]; condition: string; writes: string[] };
}

export interface DirectoryChange {
  tenantId: string;
  users: UserWrite[];
  group?: GroupPart;
  audits: AuditEntry[];
}

/**
 * The values of `expr` over `from` as an array in byte order, to compare with a parameter the caller
 * sorted the same way (code units, which for these ASCII ids is byte order). Sorting the parameter in
 * SQL instead would make PostgreSQL re-plan the statement every time: a generic plan cannot tell how
 * many elements an unnested parameter has, so it always looks dearer than a custom one.
 */
const aggregated = (expr: string, from: string) =>
  `(select coalesce(array_agg(x order by x collate "C"), '{}') from (select (${expr})::text as x from ${from}) s)`;
const sorted = (values: string[]) => [...values].sort();

/**
 * A directory change as one statement, gated on what it was decided from: every user read at the
 * version read, pointing at the same issuance, whose families (issuances and their companions) have
 * the statuses read and exactly the live credentials read; and the group's own condition. Those rows
 * are locked first (`for update` re-reads a row changed since the statement began), so a change
 * racing this one fails the gate instead of slipping past it. Everything else is written only if the
 * gate holds: users, ended families with their status list entries, new credentials with their mails,
 * the group, the audit events and the webhooks they raise. False when the gate held nothing: the
 * caller decides again.
 */
export async function writeDirectoryChange(
  em: EntityManager,
  sql: Sql,
  c: DirectoryChange,
): Promise<boolean> {
  const params = new Params();
  const p = (v: unknown) => params.add(v);
  const snapshots = c.users.map((u) => u.snapshot);
  const heads = snapshots.flatMap((s) => (s.user.issuanceId ? [s.user.issuanceId] : []));
  const ended = c.users.flatMap((u) =>
    u.end && u.snapshot.user.issuanceId ? [u.snapshot.user.issuanceId] : [],
  );
  const group = c.group?.ctes(params, 'gate');
  const state = (s: UserSnapshot) => `${s.user.id}:${s.user.version}:${s.user.issuanceId ?? ''}`;
  const ctes = [
    `users_read as (select id, version, issuance_id from scim_user
       where tenant_id = ${p(c.tenantId)} and id = any(${p(snapshots.map((s) => s.user.id))}::uuid[]) order by id for update)`,
    `family as (select id, status, coalesce(companion_of, id) as head from issuance
       where id = any(${p(heads)}::text[]) or companion_of = any(${p(heads)}::text[]) order by id for update)`,
    `live as (select c.id, f.head from issued_credential c join family f on f.id = c.issuance_id
       where c.status in ('valid', 'suspended') order by c.id for update of c)`,
    ...(group?.locks ?? []),
    `gate as (select 1 where
       ${aggregated("id || ':' || version || ':' || coalesce(issuance_id, '')", 'users_read')}
         = ${p(sorted(snapshots.map(state)))}::text[]
       and ${aggregated("id || ':' || status", 'family')} = ${p(sorted(snapshots.flatMap((s) => s.family)))}::text[]
       and ${aggregated('id', 'live')}
         = ${p(sorted(snapshots.flatMap((s) => s.liveCredentials.map((l) => l.id))))}::text[]
       ${group ? `and ${group.condition}` : ''})`,
    ...c.users.flatMap((u, k) => userWriteCte(em, params, u, k)),
    ...(ended.length ? endedFamiliesCtes(p(ended)) : []),
    ...plannedCredentialCtes(
      em,
      params,
      c.users.flatMap((u) => (u.planned ? [u.planned] : [])),
      'gate',
    ),
    ...(group?.writes ?? []),
  ];
  const audit = statementAudit(c.audits);
  ctes.push(audit.ctes(params, 'gate'));
  let written: number;
  try {
    const [row] = await sql.query<{ written: number }>(
      `with ${ctes.join(', ')} select count(*)::int as written from gate`,
      params.values,
    );
    written = row?.written ?? 0;
  } catch (e) {
    const constraint = (e as { constraint?: string }).constraint;
    if (constraint === 'scim_user_name_idx')
      throw new ScimError(409, 'userName is already taken in this tenant', 'uniqueness');
    if (constraint === 'scim_group_name_idx')
      throw new ScimError(409, 'displayName is already taken by another group of this tenant', 'uniqueness');
    throw e;
  }
  if (written) await audit.committed(em);
  return written > 0;
}

function userWriteCte(em: EntityManager, params: Params, w: UserWrite, k: number): string[] {
  if (w.user === undefined) return [];
  const id = params.add(w.snapshot.user.id);
  if (w.user === null)
    return [`u${k} as (delete from scim_user where id = ${id} and exists (select 1 from gate))`];
  const columns = setColumnsSql(entityShape(em, ScimUser), params, w.user, ['id', 'tenantId', 'createdAt']);
  return [`u${k} as (update scim_user set ${columns} where id = ${id} and exists (select 1 from gate))`];
}

/** The ended families' offers withdrawn, their live credentials revoked and those list entries set. */
const endedFamiliesCtes = (heads: string) => [
  `withdrawn as (update issuance set status = 'withdrawn', payload = null, deferred_holder_keys = null
     where id in (select id from family where head = any(${heads}::text[])) and status in ${WITHDRAWABLE_SQL}
       and exists (select 1 from gate))`,
  `revoked as (update issued_credential set status = 'revoked'
     where id in (select id from live where head = any(${heads}::text[])) and exists (select 1 from gate)
     returning status_list_id, status_idx)`,
  `revoked_entries as (insert into status_list_change (list_id, idx, status)
     select status_list_id::uuid, status_idx, ${StatusType.INVALID} from revoked)`,
];
