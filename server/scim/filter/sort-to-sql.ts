import { ScimError } from '../scim-error.js';
import { AttributeResolver, type Leaf, subOf, type Target } from './attribute-resolver.js';
import type { AttrPath } from './filter-ast.js';
import { parseAttrPath } from './filter-parser.js';
import type { ResourceType } from './scim-schema.js';
import { checkAlias } from './sql-params.js';

const invalidSortBy = (detail: string) => new ScimError(400, `sortBy: ${detail}`, 'invalidValue');

/**
 * The SQL expression to order `scim_user` / `scim_group` rows aliased `alias` by, for a `sortBy`
 * attribute (RFC 7644 section 3.4.2.3). It holds no parameters: only schema names reach it. The caller
 * adds the direction, `nulls last` (unassigned values sort last either way) and a tie-breaker such as
 * the id, e.g. `order by ${expr} desc nulls last, u.id`.
 *
 * Strings order by code point, case-insensitively unless the attribute is caseExact: RFC 7644 asks for
 * Unicode order "with no specific locale implied", and `filterToSql`'s gt/lt compare the same way.
 * A multi-valued attribute sorts by its primary value, else its first. Unknown or unsortable
 * attributes are a 400 invalidValue: unlike a filter, there is no "matches nothing" to fall back on.
 */
export function sortToSql(attr: string, resourceType: ResourceType, alias: string): string {
  let path: AttrPath;
  try {
    path = parseAttrPath(attr);
  } catch (e) {
    throw e instanceof ScimError ? invalidSortBy(e.detail) : e;
  }
  const target = new AttributeResolver(resourceType, checkAlias(alias)).resolve(path);
  if (target === undefined) throw invalidSortBy(`unknown attribute '${attr}'`);
  return sortKey(target, path.subAttr, attr);
}

function sortKey(target: Target, subAttr: string | undefined, attr: string): string {
  if (target.kind === 'leaf') {
    if (subAttr !== undefined) throw invalidSortBy(`unknown attribute '${attr}'`);
    return ordered(target, target.sql);
  }
  const element = target.kind === 'multi' ? target.element : target;
  const leaf =
    element.kind === 'leaf'
      ? subAttr === undefined
        ? element
        : undefined
      : subOf(element, subAttr ?? 'value');
  if (leaf === undefined) {
    throw invalidSortBy(
      subAttr === undefined
        ? `${attr} is complex; sort by one of its sub-attributes`
        : `unknown attribute '${attr}'`,
    );
  }
  if (target.kind !== 'multi') return ordered(leaf, leaf.sql);
  if (!target.primaryOrFirst) throw invalidSortBy(`${attr} cannot be sorted by`);
  return ordered(leaf, target.primaryOrFirst(leaf.sql));
}

function ordered(leaf: Leaf, sql: string): string {
  if (leaf.type !== 'string' || leaf.form === 'uuid') return sql;
  return leaf.caseExact ? `${sql} collate "C"` : `lower(${sql}) collate "C"`;
}
