import type { EntityManager } from '@mikro-orm/postgresql';
import { entityShape, insertRowSql, setColumnsSql } from '../persistence/entity-rows.js';
import type { Params } from '../persistence/sql.js';
import type { GroupPart } from './directory-change-statement.js';
import { ScimGroup } from './scim-group.entity.js';

export interface GroupWrite {
  /** The group as read (undefined: it is created), and as it becomes (null: deleted). */
  before: Pick<ScimGroup, 'id' | 'tenantId' | 'version'> | undefined;
  after: ScimGroup | null;
  added: { userId: string; display: string | null }[];
  removed: string[];
}

/**
 * The group's side of a directory change statement: the row as read locked and its version checked
 * (a new group has nothing to check; its displayName's unique index refuses a taken one), then,
 * behind the gate, the row written and the membership changed.
 */
export function groupPart(em: EntityManager, w: GroupWrite): GroupPart {
  const shape = entityShape(em, ScimGroup);
  return {
    ctes(params: Params, gate: string) {
      const p = (v: unknown) => params.add(v);
      // Added only where a statement part names it: a parameter no part uses has no type.
      let param: string | undefined;
      const id = () => (param ??= `${p(w.before?.id ?? w.after?.id)}::uuid`);
      const locks = w.before
        ? [
            `group_read as (select version from scim_group where id = ${id()} and tenant_id = ${p(w.before.tenantId)} for update)`,
          ]
        : [];
      const condition = w.before ? `(select version from group_read) = ${p(w.before.version)}` : 'true';
      const row = !w.after
        ? `g as (delete from scim_group where id = ${id()} and exists (select 1 from ${gate}))`
        : w.before
          ? `g as (update scim_group set ${setColumnsSql(shape, params, w.after, ['id', 'tenantId', 'createdAt'])}
               where id = ${id()} and exists (select 1 from ${gate}))`
          : `g as (${insertRowSql(shape, params, w.after, gate)} returning id)`;
      const members = [
        ...(w.removed.length
          ? [
              `members_removed as (delete from scim_group_member where group_id = ${id()}
                 and user_id = any(${p(w.removed)}::uuid[]) and exists (select 1 from ${gate}))`,
            ]
          : []),
        ...(w.added.length
          ? [
              `members_added as (insert into scim_group_member (group_id, user_id, display)
                 select ${id()}, a.user_id, a.display
                 from jsonb_to_recordset(${p(JSON.stringify(w.added.map((a) => ({ user_id: a.userId, display: a.display }))))}::jsonb)
                   as a(user_id uuid, display text)
                 where exists (select 1 from ${gate}) on conflict do nothing)`,
            ]
          : []),
      ];
      return { locks, condition, writes: [row, ...members] };
    },
  };
}
