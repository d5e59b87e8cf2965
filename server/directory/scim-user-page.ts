import type { Sql } from '../persistence/sql.js';
import type { GroupRef } from './group-membership.js';
import type { ScimUser } from './scim-user.entity.js';
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
  id: string | null;
  resource: Record<string, unknown>;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  version: number;
  issuanceId: string | null;
  credentialReason: string | null;
  directCredential: string | null;
  groups: GroupRef[] | null;
  issuance: IssuanceRow | null;
}

/**
 * The total, the page (creation time, then id, as `listScimResources` orders) and, per user, the
 * groups (by name) and the issuance with its credentials (oldest first), in one prepared statement:
 * an unfiltered page was three to four statements, each parsed and planned anew, and camel-casing
 * every column of every row in JavaScript. No page is read when the total says it would be empty.
 * The signed credential is read only when the client asked for it (`withCredential`).
 */
const PAGE = `
select c.n as total, u.id, u.resource, u.active, u.created_at as "createdAt", u.updated_at as "updatedAt",
  u.version, u.issuance_id as "issuanceId", u.credential_reason as "credentialReason",
  case when $4 then u.direct_credential end as "directCredential",
  (select json_agg(json_build_object('id', g.id, 'displayName', g.display_name) order by g.display_name)
   from scim_group_member m join scim_group g on g.id = m.group_id where m.user_id = u.id) as groups,
  (select json_build_object('id', i.id, 'status', i.status, 'expires_at', i.expires_at, 'credentials',
     coalesce((select json_agg(json_build_object('id', ic.id, 'status', ic.status) order by ic.issued_at, ic.id)
               from issued_credential ic where ic.issuance_id = i.id), '[]'))
   from issuance i where i.id = u.issuance_id) as issuance
from (select coalesce(sum(n), 0) as n from scim_resource_count where tenant_id = $1 and resource_type = 'User') c
left join lateral (
  select * from scim_user where tenant_id = $1 and c.n >= $3 + 1
  order by created_at, id limit $2 offset $3
) u on true
order by u.created_at, u.id`;

/** One page of a tenant's users, without filter or sortBy (RFC 7644 section 3.4.2), ready for their views. */
export async function scimUserPage(
  sql: Sql,
  tenantId: string,
  page: { startIndex: number; count: number; withCredential: boolean },
): Promise<{ total: number; items: UserPageItem[] }> {
  const rows = await sql.query<PageRow>(PAGE, [
    tenantId,
    page.count,
    page.startIndex - 1,
    page.withCredential,
  ]);
  const total = Number(rows[0]?.total ?? 0);
  const now = new Date();
  const items: UserPageItem[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    items.push({
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
      groups: row.groups ?? [],
      credential: credentialStateOf(
        { id: row.id, issuanceId: row.issuanceId, credentialReason: row.credentialReason },
        row.issuance ?? undefined,
        now,
      ),
    });
  }
  return { total, items };
}
