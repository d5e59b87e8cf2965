import type { AttrPath } from './filter-ast.js';
import {
  type AttributeDef,
  findAttribute,
  GROUP_SCHEMA_URN,
  type ResourceType,
  SCHEMAS,
  type SchemaDef,
  USER_SCHEMA_URN,
} from './scim-schema.js';
import { sqlLiteral } from './sql-params.js';

/** One comparable value: an SQL expression and what the schema says about comparing it. */
export interface Leaf {
  kind: 'leaf';
  name: string;
  /** the full name, such as `emails.primary`, for error messages */
  label: string;
  type: 'string' | 'boolean' | 'dateTime';
  caseExact: boolean;
  sql: string;
  /** `text` also for jsonb booleans, which `->>` renders as 'true' / 'false' */
  form: 'text' | 'uuid' | 'boolean' | 'timestamptz';
}

/** A single-valued complex attribute, such as `name` or the enterprise `manager`. */
export interface Complex {
  kind: 'complex';
  name: string;
  subs: Leaf[];
  /** Sub-attributes the schema declares but no filter can compare (`meta.version`, `members.$ref`). */
  unsupported: string[];
}

/** A multi-valued attribute: `from` yields one row per value, `where` ties those rows to the resource row. */
export interface Multi {
  kind: 'multi';
  name: string;
  from: string;
  where?: string;
  element: Leaf | Complex;
  /** for jsonb arrays: a scalar subquery of `sql` over the primary value, else the first (for sortBy) */
  primaryOrFirst?: (sql: string) => string;
}

export type Target = Leaf | Complex | Multi;

export const subOf = (complex: Complex, name: string) =>
  complex.subs.find((s) => s.name.toLowerCase() === name.toLowerCase());

/**
 * Maps attribute names to SQL over one row of `scim_user` or `scim_group` aliased `alias`. Columns stand
 * in for the attributes that have one (so their indexes serve), the `resource` jsonb for the rest, and
 * `scim_group_member` for `groups` and `members`. Subquery aliases derive from `alias`, so they never
 * shadow it.
 */
export class AttributeResolver {
  constructor(
    private readonly resourceType: ResourceType,
    private readonly alias: string,
  ) {}

  /** The attribute a top-level path names (its sub-attribute is the caller's next step), or undefined. */
  resolve(path: AttrPath): Target | undefined {
    const uri = path.uri?.toLowerCase();
    for (const schema of SCHEMAS[this.resourceType]) {
      if (uri !== undefined && schema.urn.toLowerCase() !== uri) continue;
      const def = findAttribute(schema.attributes, path.attr);
      if (def) return this.target(def, schema);
    }
    return undefined;
  }

  private target(def: AttributeDef, schema: SchemaDef): Target {
    const base = schema.resourceKey
      ? `${this.alias}.resource->${sqlLiteral(schema.resourceKey)}`
      : `${this.alias}.resource`;
    if (def.multiValued) return this.multi(def, base);
    const json = `${base}->${sqlLiteral(def.name)}`;
    if (def.type === 'complex')
      return this.complex(def, (sub) => this.leaf(sub, `${json}->>${sqlLiteral(sub.name)}`));
    return this.leaf(def, `${base}->>${sqlLiteral(def.name)}`);
  }

  private multi(def: AttributeDef, base: string): Multi {
    const a = this.alias;
    const storage = def.storage && 'source' in def.storage ? def.storage.source : undefined;
    if (storage === 'schemas') {
      // Every resource has its core schema; an extension is present when its key is (RFC 7643 section 3).
      const core = sqlLiteral(this.resourceType === 'User' ? USER_SCHEMA_URN : GROUP_SCHEMA_URN);
      const from = `(select ${core} union all select k from jsonb_object_keys(${a}.resource) as k where k like 'urn:%') as ${a}_e(v)`;
      return { kind: 'multi', name: def.name, from, element: this.leaf(def, `${a}_e.v`) };
    }
    if (storage === 'groupsOfUser') {
      const from = `scim_group_member ${a}_gm join scim_group ${a}_g on ${a}_g.id = ${a}_gm.group_id and ${a}_g.tenant_id = ${a}.tenant_id`;
      const columns: Record<string, string> = {
        value: `${a}_gm.group_id`,
        display: `${a}_g.display_name`,
        type: sqlLiteral('direct'),
      };
      return this.membership(def, from, `${a}_gm.user_id = ${a}.id`, columns);
    }
    if (storage === 'membersOfGroup') {
      const from = `scim_group_member ${a}_m join scim_user ${a}_mu on ${a}_mu.id = ${a}_m.user_id and ${a}_mu.tenant_id = ${a}.tenant_id`;
      const columns: Record<string, string> = {
        value: `${a}_m.user_id`,
        // What a group's members show as display: the one the client gave, else the user's names.
        display: `coalesce(${a}_m.display, ${a}_mu.display_name, ${a}_mu.user_name)`,
        type: sqlLiteral('User'),
      };
      return this.membership(def, from, `${a}_m.group_id = ${a}.id`, columns);
    }
    const array = `${base}->${sqlLiteral(def.name)}`;
    // A value that is not an array (never written by this service) yields no rows instead of an error.
    const elements = `jsonb_array_elements(case when jsonb_typeof(${array}) = 'array' then ${array} else '[]' end)`;
    const element =
      def.type === 'complex'
        ? this.complex(def, (sub) => this.leaf(sub, `${a}_e.elem->>${sqlLiteral(sub.name)}`))
        : this.leaf(def, `${a}_e.elem #>> '{}'`);
    const primaryOrFirst = (sql: string) =>
      `(select ${sql} from ${elements} with ordinality as ${a}_e(elem, n) ` +
      `order by coalesce(${a}_e.elem->'primary' = 'true', false) desc, ${a}_e.n limit 1)`;
    return { kind: 'multi', name: def.name, from: `${elements} as ${a}_e(elem)`, element, primaryOrFirst };
  }

  /** `groups` / `members`: value is the other side's uuid; `$ref` depends on the base URL, so it is unknown. */
  private membership(def: AttributeDef, from: string, where: string, columns: Record<string, string>): Multi {
    const element = this.complex(def, (sub) => {
      const sql = columns[sub.name];
      if (sql === undefined) return undefined;
      const leaf = this.leaf(sub, sql);
      return sub.name === 'value' ? { ...leaf, form: 'uuid', caseExact: true } : leaf;
    });
    return { kind: 'multi', name: def.name, from, where, element };
  }

  private complex(def: AttributeDef, leafOf: (sub: AttributeDef) => Leaf | undefined): Complex {
    const unsupported: string[] = [];
    const subs = (def.subAttributes ?? []).flatMap((sub) => {
      const leaf = sub.storage && 'unsupported' in sub.storage ? undefined : leafOf(sub);
      if (!leaf) unsupported.push(sub.name);
      return leaf ? [{ ...leaf, label: `${def.name}.${sub.name}` }] : [];
    });
    return { kind: 'complex', name: def.name, subs, unsupported };
  }

  /** `json` is where the value sits in `resource` when the attribute has no storage of its own. */
  private leaf(def: AttributeDef, json: string): Leaf {
    const type = def.type === 'boolean' || def.type === 'dateTime' ? def.type : 'string';
    const leaf: Leaf = {
      kind: 'leaf',
      name: def.name,
      label: def.name,
      type,
      caseExact: def.caseExact ?? false,
      sql: json,
      form: 'text',
    };
    const storage = def.storage;
    if (storage && 'constant' in storage) return { ...leaf, sql: sqlLiteral(storage.constant) };
    if (!storage || !('column' in storage)) return leaf;
    const sql = `${this.alias}.${storage.column}`;
    if (storage.uuid) return { ...leaf, sql, form: 'uuid' };
    return {
      ...leaf,
      sql,
      form: type === 'boolean' ? 'boolean' : type === 'dateTime' ? 'timestamptz' : 'text',
    };
  }
}
