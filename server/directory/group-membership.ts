import type { EntityManager } from '@mikro-orm/postgresql';

export interface GroupRef {
  id: string;
  displayName: string;
}

/** The groups of each of the given users, in one query. */
export async function groupsOfUsers(em: EntityManager, userIds: string[]): Promise<Map<string, GroupRef[]>> {
  const byUser = new Map<string, GroupRef[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return byUser;
  const rows = await em.execute<{ user_id: string; id: string; display_name: string }[]>(
    `select m.user_id, g.id, g.display_name from scim_group_member m join scim_group g on g.id = m.group_id
     where m.user_id in (${userIds.map(() => '?').join(',')}) order by g.display_name`,
    userIds,
  );
  for (const r of rows) byUser.get(r.user_id)?.push({ id: r.id, displayName: r.display_name });
  return byUser;
}

/** The group names of each of these users, e.g. before a change, to tell whose powers it altered. */
export async function groupNamesOfUsers(
  em: EntityManager,
  userIds: string[],
): Promise<Map<string, string[]>> {
  const refs = await groupsOfUsers(em, userIds);
  return new Map([...refs].map(([user, groups]) => [user, groups.map((g) => g.displayName)]));
}

export interface GroupMember {
  id: string;
  display: string;
}

/** The members of each of the given groups, in one query; display as given, else the user's name. */
export async function membersOfGroups(
  em: EntityManager,
  groupIds: string[],
): Promise<Map<string, GroupMember[]>> {
  const byGroup = new Map<string, GroupMember[]>(groupIds.map((id) => [id, []]));
  if (!groupIds.length) return byGroup;
  const rows = await em.execute<{ group_id: string; id: string; display: string }[]>(
    `select m.group_id, u.id, coalesce(m.display, u.display_name, u.user_name) as display
     from scim_group_member m join scim_user u on u.id = m.user_id
     where m.group_id in (${groupIds.map(() => '?').join(',')}) order by u.user_name`,
    groupIds,
  );
  for (const r of rows) byGroup.get(r.group_id)?.push({ id: r.id, display: r.display });
  return byGroup;
}
