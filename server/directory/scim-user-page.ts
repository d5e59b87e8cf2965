import type { Sql } from '../persistence/sql.js';
import type { GroupRef } from './group-membership.js';
import type { ScimUser } from './scim-user.entity.js';
import type { Anchor, UserPageAnchors } from './scim-user-anchors.js';
import { type CredentialState, credentialStateOf, type IssuanceRow } from './user-credential-state.js';

/** What a user's SCIM representation is built from: the stored user, its groups and credential state. */
export interface UserPageItem {
  user: Pick<ScimUser, 'id' | 'resource' | 'active' | 'createdAt' | 'updatedAt' | 'version'> & {
    directCredential: string | null;
  };
  groups: GroupRef[];
  credential: CredentialState;
}

interface PageRow {
  total: string;
  changes: string;
  groupCount: string;
  id: string | null;
  resource: Record<string, unknown>;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  version: number;
  issuanceId: string | null;
  credentialReason: string | null;
  directCredential: string | null;
}

/**
 * The total and the page (creation time, then id, as `listScimResources` orders) in one prepared
 * statement: an unfiltered page was a count, the page and the group read, each parsed and planned
 * anew, and camel-casing every column of every row in JavaScript. No page is read when the total
 * says it would be empty. The signed credential is read only when the client asked for it ($4).
 *
 * The page starts from an anchor ($5, $6: a user's sort key, at position $7 + 1) instead of the
 * first user, so the OFFSET skips only the users between the anchor and the page; with none, the
 * anchor is before every user. An anchor only holds while the tenant's change count is still the
 * one it was learnt under ($8): otherwise the statement reads no page and answers the count.
 *
 * The anchor, the count and the offset are subselects so that no plan depends on their values:
 * PostgreSQL then keeps one generic plan (the ordered index scan) per connection instead of
 * planning the statement again at every execution, which cost it more than running it.
 *
 * Groups and credentials are read by statements of their own: as correlated subqueries here they
 * cost PostgreSQL more to plan at every execution than two more prepared statements cost to run.
 * Neither runs when it has nothing to find: no groups in the tenant (its counter), no issuance.
 */
const PAGE = `
select c.n as total, c.changes, c.groups as "groupCount", u.id, u.resource, u.active, u.created_at as "createdAt",
  u.updated_at as "updatedAt", u.version, u.issuance_id as "issuanceId", u.credential_reason as "credentialReason",
  case when $4::boolean then u.direct_credential end as "directCredential"
from (select coalesce(sum(n) filter (where resource_type = 'User'), 0) as n,
        coalesce(sum(changes) filter (where resource_type = 'User'), 0) as changes,
        coalesce(sum(n) filter (where resource_type = 'Group'), 0) as groups
      from scim_resource_count where tenant_id = $1) c
left join lateral (
  select * from scim_user
  where tenant_id = $1 and c.n >= $3::bigint + 1 and ($8::numeric is null or c.changes = $8::numeric)
    and (created_at, id) >= ((select $5::timestamptz), (select $6::uuid))
  order by created_at, id limit (select $2::bigint) offset (select $3::bigint - $7::bigint)
) u on true
order by u.created_at, u.id`;

/** As groupsOfUsers reads them: by group name. */
const GROUPS = `
select m.user_id, g.id, g.display_name from scim_group_member m join scim_group g on g.id = m.group_id
where m.user_id = any($1::uuid[]) order by g.display_name`;

/** As credentialStates reads them: each issuance with its credentials, oldest first. */
const ISSUANCES = `
select i.id, i.status, i.expires_at,
  coalesce(json_agg(json_build_object('id', c.id, 'status', c.status) order by c.issued_at, c.id)
    filter (where c.id is not null), '[]') as credentials
from issuance i left join issued_credential c on c.issuance_id = i.id
where i.id = any($1::text[]) group by i.id`;

const BEFORE_EVERY_USER = { position: 1, createdAt: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

/**
 * One page of a tenant's users, without filter or sortBy (RFC 7644 section 3.4.2), ready for their
 * views. `anchors` are this node's knowledge of where positions start; a stale one costs a second
 * statement from the first user, never a different page.
 */
export async function scimUserPage(
  sql: Sql,
  anchors: UserPageAnchors,
  tenantId: string,
  page: { startIndex: number; count: number; withCredential: boolean },
): Promise<{ total: number; items: UserPageItem[] }> {
  const read = (anchor: Anchor, changes: string | null) =>
    sql.query<PageRow>(PAGE, [
      tenantId,
      page.count,
      page.startIndex - 1,
      page.withCredential,
      anchor.createdAt,
      anchor.id,
      anchor.position - 1,
      changes,
    ]);
  const known = anchors.nearest(tenantId, page.startIndex);
  let rows = known ? await read(known.anchor, known.changes) : [];
  if (!known || String(rows[0]?.changes) !== known.changes) rows = await read(BEFORE_EVERY_USER, null);
  const first = rows[0];
  const total = Number(first?.total ?? 0);
  const users = rows.filter((r): r is PageRow & { id: string } => r.id !== null);
  const last = users[users.length - 1];
  if (first && last) {
    anchors.learn(tenantId, String(first.changes), [
      { position: page.startIndex, createdAt: users[0]?.createdAt as string, id: users[0]?.id as string },
      { position: page.startIndex + users.length - 1, createdAt: last.createdAt, id: last.id },
    ]);
  }
  const issuanceIds = users.map((u) => u.issuanceId).filter((id): id is string => id !== null);
  const [groupRows, issuances] = await Promise.all([
    // A tenant without groups has no memberships: only this tenant's users can be members.
    users.length && Number(first?.groupCount) > 0
      ? sql.query<{ user_id: string; id: string; display_name: string }>(GROUPS, [users.map((u) => u.id)])
      : [],
    issuanceIds.length ? sql.query<IssuanceRow>(ISSUANCES, [issuanceIds]) : [],
  ]);
  const groups = new Map<string, GroupRef[]>();
  for (const r of groupRows) {
    const mine = groups.get(r.user_id) ?? [];
    groups.set(r.user_id, mine);
    mine.push({ id: r.id, displayName: r.display_name });
  }
  const byIssuance = new Map(issuances.map((i) => [i.id, i]));
  const now = new Date();
  const items = users.map((row) => ({
    user: {
      id: row.id,
      resource: row.resource,
      active: row.active,
      // The pool hands timestamps over as text, as the ORM would read them.
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
      version: row.version,
      directCredential: row.directCredential,
    },
    groups: groups.get(row.id) ?? [],
    credential: credentialStateOf(row, row.issuanceId ? byIssuance.get(row.issuanceId) : undefined, now),
  }));
  return { total, items };
}
