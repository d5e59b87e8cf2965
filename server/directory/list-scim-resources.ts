import type { EntityManager } from '@mikro-orm/postgresql';
import { filterToSql, parseFilter, sortToSql } from '../scim/filter/index.js';
import type { ListParams } from '../scim/list-params.js';
import { ScimGroup } from './scim-group.entity.js';
import { ScimUser } from './scim-user.entity.js';

const TABLES = { User: ['scim_user', ScimUser], Group: ['scim_group', ScimGroup] } as const;

/**
 * One page of a tenant's users or groups (RFC 7644 section 3.4.2): the filter and sort are
 * translated to SQL, so only the page is loaded; the total is exact; the order is stable (creation
 * time, then id, after any sortBy).
 *
 * The total of an unfiltered list is the tenant's count, kept by triggers in the same transaction
 * as every insert and delete (`scim_resource_count`, migration 20261123000600): a few rows summed,
 * not a scan of every user per page. A filtered list still counts its matches.
 */
export async function listScimResources<T extends 'User' | 'Group'>(
  em: EntityManager,
  type: T,
  tenantId: string,
  p: ListParams,
): Promise<{ total: number; items: (T extends 'User' ? ScimUser : ScimGroup)[] }> {
  const [table, entity] = TABLES[type];
  const condition = p.filter ? filterToSql(parseFilter(p.filter), type, 'r') : { sql: 'true', params: [] };
  const where = `from ${table} r where r.tenant_id = ? and ${condition.sql}`;
  const params = [tenantId, ...condition.params];
  const sort = p.sortBy
    ? `${sortToSql(p.sortBy, type, 'r')} ${p.descending ? 'desc' : 'asc'} nulls last, `
    : '';
  const [counted] = p.filter
    ? await em.execute<{ n: string }[]>(`select count(*) as n ${where}`, params)
    : await em.execute<{ n: string }[]>(
        'select coalesce(sum(n), 0) as n from scim_resource_count where tenant_id = ? and resource_type = ?',
        [tenantId, type],
      );
  const total = Number(counted?.n ?? 0);
  if (p.count === 0 || total < p.startIndex) return { total, items: [] };
  const rows = await em.execute(`select r.* ${where} order by ${sort}r.created_at, r.id limit ? offset ?`, [
    ...params,
    p.count,
    p.startIndex - 1,
  ]);
  const items = rows.map((row) => em.map(entity as typeof ScimUser, row)) as never;
  return { total, items };
}
