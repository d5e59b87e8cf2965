import type { ScimAttribute, ScimSchema } from '../schema/scim-attributes.js';
import { ScimError } from '../scim-error.js';
import { findAttribute, type ResourceSchemas } from './scim-resource.js';
import { parseValueFilter, type ValueFilter } from './value-filter.js';

/**
 * A PATCH "path" (RFC 7644 section 3.5.2: `[URN ":"] attr ["[" filter "]"] ["." subAttr]`) bound to the
 * definitions it names. Without `attribute` it targets a whole schema namespace (the path is a URN).
 */
export interface PatchPath {
  readonly text: string;
  readonly schema: ScimSchema;
  /** True when the target lives in the object under an extension URN rather than on the resource. */
  readonly inExtension: boolean;
  readonly attribute?: ScimAttribute;
  readonly filter?: ValueFilter;
  readonly subAttribute?: ScimAttribute;
}

const ATTRIBUTE_NAME = /^(?:\$ref|[A-Za-z][\w-]*)/;

const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');

/** Where the filter opened at index 0 closes, skipping brackets inside quoted strings. */
function closingBracket(text: string): number {
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ']' && !quoted) return i;
  }
  return -1;
}

/** Splits a leading schema URN off, matching it case-insensitively against the resource's schemas. */
function schemaPrefix(text: string, schemas: ResourceSchemas): { schema?: ScimSchema; rest: string } {
  if (!/^urn:/i.test(text)) return { rest: text };
  const lower = text.toLowerCase();
  for (const schema of [schemas.core, ...schemas.extensions]) {
    const id = schema.id.toLowerCase();
    if (lower === id) return { schema, rest: '' };
    if (lower.startsWith(`${id}:`)) return { schema, rest: text.slice(id.length + 1) };
  }
  throw invalidPath(`${text} names no schema of this resource`);
}

function resolveAttribute(
  name: string,
  schema: ScimSchema | undefined,
  schemas: ResourceSchemas,
): { schema: ScimSchema; attribute: ScimAttribute } | undefined {
  const inCore = !schema || schema === schemas.core;
  const core = inCore ? findAttribute(schemas.coreAttributes, name) : undefined;
  if (core) return { schema: schemas.core, attribute: core };
  // Entra sends enterprise attributes by their short name too ("path": "manager").
  for (const extension of schema ? [schema] : schemas.extensions) {
    const attribute = extension !== schemas.core ? findAttribute(extension.attributes, name) : undefined;
    if (attribute) return { schema: extension, attribute };
  }
  return undefined;
}

export function parsePatchPath(text: string, schemas: ResourceSchemas): PatchPath {
  const prefixed = schemaPrefix(text.trim(), schemas);
  let rest = prefixed.rest;
  if (prefixed.schema && rest === '') {
    return { text, schema: prefixed.schema, inExtension: prefixed.schema !== schemas.core };
  }
  const name = ATTRIBUTE_NAME.exec(rest)?.[0];
  if (!name) throw invalidPath(`${text} is not an attribute path`);
  const resolved = resolveAttribute(name, prefixed.schema, schemas);
  if (!resolved) throw invalidPath(`${name} is not an attribute of this resource`);
  const { schema, attribute } = resolved;
  rest = rest.slice(name.length);

  let filter: ValueFilter | undefined;
  if (rest.startsWith('[')) {
    const end = closingBracket(rest);
    if (end < 0) throw invalidPath(`${text} has an unclosed "["`);
    if (!attribute.multiValued) throw invalidPath(`${attribute.name} is single-valued and takes no filter`);
    filter = parseValueFilter(rest.slice(1, end), attribute);
    rest = rest.slice(end + 1);
  }

  let subAttribute: ScimAttribute | undefined;
  if (rest.startsWith('.')) {
    const subName = ATTRIBUTE_NAME.exec(rest.slice(1))?.[0] ?? '';
    subAttribute = findAttribute(attribute.subAttributes, subName);
    if (!subAttribute)
      throw invalidPath(`${attribute.name} has no sub-attribute ${subName || rest.slice(1)}`);
    rest = rest.slice(1 + subName.length);
  }
  if (rest !== '') throw invalidPath(`${text} is not an attribute path`);
  if (subAttribute && attribute.multiValued && !filter) {
    throw invalidPath(
      `${text} needs a filter to pick values, as in ${attribute.name}[type eq "work"].${subAttribute.name}`,
    );
  }
  return { text, schema, inExtension: schema !== schemas.core, attribute, filter, subAttribute };
}
