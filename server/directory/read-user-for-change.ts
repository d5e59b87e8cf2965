import type { EntityManager } from '@mikro-orm/postgresql';
import { entityFromRow, entityShape, selectColumns } from '../persistence/entity-rows.js';
import type { Sql } from '../persistence/sql.js';
import type { GroupRef } from './group-membership.js';
import { liveIssuanceSql } from './revoke-user-credential.js';
import { ScimUser } from './scim-user.entity.js';
import type { IssuanceRow } from './user-credential-state.js';

/**
 * What a change to a user is decided from, as one read saw it: the user, their groups, the issuance
 * they point at with its credentials (for the credential state), whether it is live, and — what a
 * change may end — each issuance of its family (it and its companions) with its status, and the
 * family's credentials still valid or suspended. The write is gated on all of it being unchanged.
 */
export interface UserSnapshot {
  user: ScimUser;
  groups: GroupRef[];
  issuance: IssuanceRow | undefined;
  live: boolean;
  /** `<issuance id>:<status>` of the family, ordered by id. */
  family: string[];
  /** Valid or suspended credentials of the family, ordered by id. */
  liveCredentials: { id: string; list: string; idx: number }[];
}

let text: string | undefined;
const statement = (em: EntityManager) =>
  (text ??= `select ${selectColumns(entityShape(em, ScimUser))},
     coalesce((select json_agg(json_build_object('id', g.id, 'displayName', g.display_name) order by g.display_name)
       from scim_group_member m join scim_group g on g.id = m.group_id where m.user_id = u.id), '[]') as "groups",
     (select json_build_object('id', i.id, 'status', i.status, 'expires_at', i.expires_at,
        'credentials', coalesce((select json_agg(json_build_object('id', c.id, 'status', c.status) order by c.issued_at, c.id)
          from issued_credential c where c.issuance_id = i.id), '[]'))
      from issuance i where i.id = u.issuance_id) as "issuance",
     coalesce((select ${liveIssuanceSql('i')} from issuance i where i.id = u.issuance_id), false) as "live",
     coalesce((select array_agg(f.id || ':' || f.status order by f.id) from issuance f
       where f.id = u.issuance_id or f.companion_of = u.issuance_id), '{}') as "family",
     coalesce((select json_agg(json_build_object('id', c.id, 'list', c.status_list_id, 'idx', c.status_idx) order by c.id)
       from issuance f join issued_credential c on c.issuance_id = f.id
       where (f.id = u.issuance_id or f.companion_of = u.issuance_id) and c.status in ('valid', 'suspended')), '[]')
       as "liveCredentials"
   from scim_user u where u.id = any($1::uuid[]) and u.tenant_id = $2`);

/** The user `id` of the tenant with everything a change is decided from, in one statement; undefined if none. */
export async function readUserForChange(
  em: EntityManager,
  sql: Sql,
  tenantId: string,
  id: string,
): Promise<UserSnapshot | undefined> {
  return (await readUsersForChange(em, sql, tenantId, [id])).get(id);
}

/** The same for several users of the tenant (those that exist), by id, in one statement. */
export async function readUsersForChange(
  em: EntityManager,
  sql: Sql,
  tenantId: string,
  ids: string[],
): Promise<Map<string, UserSnapshot>> {
  const rows = ids.length ? await sql.query<Record<string, unknown>>(statement(em), [ids, tenantId]) : [];
  const shape = entityShape(em, ScimUser);
  return new Map(
    rows.map(({ groups, issuance, live, family, liveCredentials, ...columns }) => {
      const user = entityFromRow<ScimUser>(shape, columns);
      const snapshot: UserSnapshot = {
        user,
        groups: groups as GroupRef[],
        issuance: (issuance ?? undefined) as IssuanceRow | undefined,
        live: live === true,
        family: family as string[],
        liveCredentials: liveCredentials as UserSnapshot['liveCredentials'],
      };
      return [user.id, snapshot];
    }),
  );
}
