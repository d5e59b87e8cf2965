/**
 * The syntax tree of a SCIM filter (RFC 7644 section 3.4.2.2), as `parseFilter` builds it and
 * `filterToSql` reads it. Names are kept as written: resolving them against the schema (case-insensitive,
 * optional URN prefix) is the translator's job, so the parser needs no schema.
 */

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';

export const COMPARE_OPS: readonly CompareOp[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'];

/** A compValue: the JSON literals the ABNF allows (no objects or arrays). */
export type CompValue = string | number | boolean | null;

/**
 * `[URI ":"] ATTRNAME ["." subAttr]`, e.g. `name.givenName` or
 * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`.
 * Inside a value filter (`emails[type eq "work"]`) a path is one sub-attribute name of the outer attribute.
 */
export interface AttrPath {
  /** The schema URN prefix, when the path carried one. */
  uri?: string;
  attr: string;
  subAttr?: string;
  /** The path as written, for error messages. */
  text: string;
}

export interface CompareNode {
  kind: 'compare';
  path: AttrPath;
  op: CompareOp;
  value: CompValue;
}

export interface PresentNode {
  kind: 'present';
  path: AttrPath;
}

/** `and` / `or` over two or more operands; a chain `a or b or c` is one node with three. */
export interface LogicalNode {
  kind: 'and' | 'or';
  filters: FilterNode[];
}

export interface NotNode {
  kind: 'not';
  filter: FilterNode;
}

/**
 * `emails[type eq "work" and value co "@x"]`: some one value of the multi-valued (or complex) attribute
 * `path` satisfies `filter`, whose paths name sub-attributes of it. `emails[type eq "work"].value eq "a"`
 * is parsed into the same node with the trailing comparison and-ed into `filter`.
 */
export interface ValuePathNode {
  kind: 'valuePath';
  path: AttrPath;
  filter: FilterNode;
}

export type FilterNode = CompareNode | PresentNode | LogicalNode | NotNode | ValuePathNode;

/**
 * Limits that keep one request from costing unbounded parse, translation and planning time. Going over
 * one is a malformed request (400 invalidFilter); `tooMany` is for result sizes, not for this.
 */
export const FILTER_LIMITS = {
  /** characters of filter text */
  maxLength: 2000,
  /** nodes of the tree: comparisons, `pr`, value paths, `not`, `and`, `or` */
  maxNodes: 200,
  /** nesting of parentheses, `not (…)` and `[…]` */
  maxDepth: 32,
} as const;
