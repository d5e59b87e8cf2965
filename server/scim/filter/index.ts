/** The SCIM filter language (RFC 7644 section 3.4.2.2): parsing, and translation to PostgreSQL. */
export type { AttrPath, CompareOp, CompValue, FilterNode } from './filter-ast.js';
export { FILTER_LIMITS } from './filter-ast.js';
export { parseAttrPath, parseFilter } from './filter-parser.js';
export { filterToSql, type SqlCondition } from './filter-to-sql.js';
export type { ResourceType } from './scim-schema.js';
export { sortToSql } from './sort-to-sql.js';
