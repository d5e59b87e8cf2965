import {
  COMMON_ATTRIBUTES,
  RESOURCE_SCHEMAS,
  type ScimAttribute,
  type ScimResourceType,
  type ScimSchema,
} from '../schema/scim-attributes.js';

/** The JSON shapes and schema lookups the PATCH engine shares. */

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7643 section 2.5: null, "" and an empty array or object all mean "no value". */
export function isAssigned(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** The values of a multi-valued attribute, tolerating a stored single value. */
export function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** Attribute names are case-insensitive (RFC 7643 section 2.1). */
export function findAttribute(
  attributes: readonly ScimAttribute[] | undefined,
  name: string,
): ScimAttribute | undefined {
  const wanted = name.toLowerCase();
  return attributes?.find((a) => a.name.toLowerCase() === wanted);
}

/** `schemas` is no attribute of any schema (RFC 7643 section 3), but PATCH may still target it. */
export const SCHEMAS_ATTRIBUTE: ScimAttribute = {
  name: 'schemas',
  type: 'reference',
  multiValued: true,
  required: true,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'always',
  uniqueness: 'none',
};

export interface ResourceSchemas {
  readonly core: ScimSchema;
  readonly extensions: readonly ScimSchema[];
  /** What a name without a schema URN means first: `schemas`, the common attributes, then the core ones. */
  readonly coreAttributes: readonly ScimAttribute[];
}

export function resourceSchemas(type: ScimResourceType): ResourceSchemas {
  const { core, extensions } = RESOURCE_SCHEMAS[type];
  return { core, extensions, coreAttributes: [SCHEMAS_ATTRIBUTE, ...COMMON_ATTRIBUTES, ...core.attributes] };
}

/** Where one schema's attributes live: the resource itself, or the object under an extension's URN. */
export interface Namespace {
  readonly schema: ScimSchema;
  readonly attributes: readonly ScimAttribute[];
  readonly container: JsonObject | undefined;
  /** What goes before an attribute name to make it a full path: "" or "<extension URN>:". */
  readonly prefix: string;
}

export function namespaces(resource: JsonObject, schemas: ResourceSchemas): Namespace[] {
  return [
    { schema: schemas.core, attributes: schemas.coreAttributes, container: resource, prefix: '' },
    ...schemas.extensions.map((schema) => {
      const container = resource[schema.id];
      return {
        schema,
        attributes: schema.attributes,
        container: isPlainObject(container) ? container : undefined,
        prefix: `${schema.id}:`,
      };
    }),
  ];
}
