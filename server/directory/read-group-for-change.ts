import type { EntityManager } from '@mikro-orm/postgresql';
import { entityFromRow, entityShape, selectColumns } from '../persistence/entity-rows.js';
import type { Sql } from '../persistence/sql.js';
import type { GroupMember } from './group-membership.js';
import { ScimGroup } from './scim-group.entity.js';

export interface GroupSnapshot {
  group: ScimGroup;
  /** Its members, with the display the client gave (else the user's name), ordered by user name. */
  members: GroupMember[];
}

let text: string | undefined;
const statement = (em: EntityManager) =>
  (text ??= `select ${selectColumns(entityShape(em, ScimGroup))},
     coalesce((select json_agg(json_build_object('id', u.id, 'display', coalesce(m.display, u.display_name, u.user_name))
         order by u.user_name)
       from scim_group_member m join scim_user u on u.id = m.user_id where m.group_id = g.id), '[]') as "members"
   from scim_group g where g.id = $1 and g.tenant_id = $2`);

/** The group `id` of the tenant with its members, in one statement; undefined if there is none. */
export async function readGroupForChange(
  em: EntityManager,
  sql: Sql,
  tenantId: string,
  id: string,
): Promise<GroupSnapshot | undefined> {
  const [row] = await sql.query<Record<string, unknown>>(statement(em), [id, tenantId]);
  if (!row) return undefined;
  const { members, ...columns } = row;
  return {
    group: entityFromRow<ScimGroup>(entityShape(em, ScimGroup), columns),
    members: members as GroupMember[],
  };
}
