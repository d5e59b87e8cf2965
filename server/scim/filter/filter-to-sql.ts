import { AttributeResolver, type Complex, type Leaf, type Multi, subOf } from './attribute-resolver.js';
import type { AttrPath, CompareOp, CompValue, FilterNode } from './filter-ast.js';
import { invalidFilter } from './filter-lexer.js';
import type { ResourceType } from './scim-schema.js';
import { compareSql, presentSql } from './sql-comparison.js';
import { checkAlias, SqlParams } from './sql-params.js';

export interface SqlCondition {
  /** a boolean SQL expression, parenthesised, over the table aliased `alias` */
  sql: string;
  params: unknown[];
}

/**
 * Translates a parsed filter into a condition on `scim_user` (resourceType 'User') or `scim_group`
 * ('Group') aliased `alias`. Every value is a bound parameter: `?` placeholders for MikroORM's
 * `em.execute` when `firstParam` is omitted, `$firstParam, $firstParam+1, …` for node-postgres when given.
 *
 * An attribute the schema does not know matches nothing (`false`) rather than failing: RFC 7644 section
 * 3.4.2.2 allows either, and a client filtering on an extension this service lacks gets an empty list,
 * not an error. Misusing a known attribute (`active gt true`, `name eq "x"`), or naming one that is
 * declared but computed per response (`meta.version`, `meta.location`, `members.$ref`), is a 400
 * invalidFilter, so a client never takes an empty list for "no match".
 */
export function filterToSql(
  node: FilterNode,
  resourceType: ResourceType,
  alias: string,
  firstParam?: number,
): SqlCondition {
  const params = new SqlParams(firstParam);
  const sql = `(${new FilterTranslator(new AttributeResolver(resourceType, checkAlias(alias)), params).translate(node)})`;
  const placeholders = sql.split('?').length - 1;
  if (placeholders !== (firstParam === undefined ? params.values.length : 0)) {
    throw new Error(`generated SQL has ${placeholders} '?' for ${params.values.length} parameters`);
  }
  return { sql, params: params.values };
}

type Test = { present: true } | { present: false; op: CompareOp; value: CompValue };

class FilterTranslator {
  constructor(
    private readonly resolver: AttributeResolver,
    private readonly params: SqlParams,
  ) {}

  /** `scope` is the attribute whose value filter (`emails[…]`) `node` sits in. */
  translate(node: FilterNode, scope?: Complex): string {
    switch (node.kind) {
      case 'and':
      case 'or':
        return `(${node.filters.map((f) => this.translate(f, scope)).join(` ${node.kind} `)})`;
      case 'not':
        // A comparison with an absent attribute is NULL; `not` must turn that into a match, not NULL.
        return `not coalesce(${this.translate(node.filter, scope)}, false)`;
      case 'present':
        return this.attribute(node.path, scope, { present: true });
      case 'compare':
        if (node.value !== null) return this.attribute(node.path, scope, { present: false, ...node });
        // `eq null` asks for absence, `ne null` for presence; nothing else is defined for null.
        if (node.op === 'eq')
          return `not coalesce(${this.attribute(node.path, scope, { present: true })}, false)`;
        if (node.op === 'ne') return this.attribute(node.path, scope, { present: true });
        throw invalidFilter(`${node.op} does not apply to null (in '${node.path.text} ${node.op} null')`);
      case 'valuePath':
        return this.valuePath(node.path, node.filter);
    }
  }

  private valuePath(path: AttrPath, filter: FilterNode): string {
    const target = this.resolver.resolve(path);
    if (target === undefined) return 'false';
    if (target.kind === 'complex') return this.translate(filter, target);
    if (target.kind === 'multi' && target.element.kind === 'complex') {
      return exists(target, this.translate(filter, target.element));
    }
    throw invalidFilter(`${path.text} has no sub-attributes, so it takes no value filter`);
  }

  private attribute(path: AttrPath, scope: Complex | undefined, test: Test): string {
    if (scope) return this.onComplex(scope, path.attr, test);
    const target = this.resolver.resolve(path);
    if (target === undefined) return 'false';
    if (path.subAttr !== undefined) {
      if (target.kind === 'complex') return this.onComplex(target, path.subAttr, test);
      if (target.kind === 'multi' && target.element.kind === 'complex') {
        return exists(target, this.onComplex(target.element, path.subAttr, test));
      }
      return 'false'; // a simple attribute has no sub-attributes: unknown, so no match
    }
    if (target.kind === 'leaf') return this.onLeaf(target, test);
    if (target.kind === 'complex') return this.onWhole(target, test);
    const element = target.element;
    return exists(target, element.kind === 'leaf' ? this.onLeaf(element, test) : this.onWhole(element, test));
  }

  private onComplex(complex: Complex, name: string, test: Test): string {
    const leaf = subOf(complex, name);
    if (leaf) return this.onLeaf(leaf, test);
    const declared = complex.unsupported.find((n) => n.toLowerCase() === name.toLowerCase());
    if (declared) throw invalidFilter(`${complex.name}.${declared} is not supported in filters`);
    return 'false';
  }

  /**
   * A complex attribute named without a sub-attribute: present when any sub-attribute is; compared
   * through its `value` (so `emails co "x"` means `emails.value co "x"`, as RFC 7644's examples use it).
   */
  private onWhole(complex: Complex, test: Test): string {
    if (test.present) return `(${complex.subs.map(presentSql).join(' or ')})`;
    const value = subOf(complex, 'value');
    if (!value) throw invalidFilter(`${complex.name} is complex; compare one of its sub-attributes`);
    return this.onLeaf(value, test);
  }

  private onLeaf(leaf: Leaf, test: Test): string {
    return test.present ? presentSql(leaf) : compareSql(leaf, test.op, test.value, this.params);
  }
}

/** Some one value of a multi-valued attribute satisfies `condition`. */
function exists(multi: Multi, condition: string): string {
  const where = multi.where ? `${multi.where} and (${condition})` : condition;
  return `exists (select 1 from ${multi.from} where ${where})`;
}
