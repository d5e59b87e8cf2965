import type { ScimAttribute } from '../schema/scim-attributes.js';
import { ScimError } from '../scim-error.js';
import {
  asList,
  isAssigned,
  isPlainObject,
  type JsonObject,
  namespaces,
  type ResourceSchemas,
} from './scim-resource.js';

/** Rules that hold across attributes, checked after each operation or after the whole PATCH. */

function primaryCarrying(
  resource: JsonObject,
  schemas: ResourceSchemas,
): { attribute: ScimAttribute; list: unknown[] }[] {
  return namespaces(resource, schemas).flatMap(({ attributes, container }) =>
    attributes
      .filter((a) => a.multiValued && a.subAttributes?.some((s) => s.name === 'primary'))
      .map((attribute) => ({ attribute, list: asList(container?.[attribute.name]) })),
  );
}

/** The values marked primary now; taken before an operation to tell which ones it marked. */
export function primaryValues(resource: JsonObject, schemas: ResourceSchemas): Set<unknown> {
  const marked = primaryCarrying(resource, schemas).flatMap(({ list }) =>
    list.filter((element) => isPlainObject(element) && element.primary === true),
  );
  return new Set(marked);
}

/**
 * RFC 7643 2.4: "primary" is true on one value at most. A value an operation marks primary takes the
 * mark from the others; one operation marking two values of one attribute is refused.
 */
export function keepOnePrimary(resource: JsonObject, schemas: ResourceSchemas, before: Set<unknown>): void {
  for (const { attribute, list } of primaryCarrying(resource, schemas)) {
    const primaries = list.filter(
      (element) => isPlainObject(element) && element.primary === true,
    ) as JsonObject[];
    const marked = primaries.filter((element) => !before.has(element));
    if (marked.length > 1) {
      throw new ScimError(400, `only one value of ${attribute.name} may be primary`, 'invalidValue');
    }
    if (marked.length === 1)
      for (const element of primaries) if (element !== marked[0]) delete element.primary;
  }
}

/**
 * After the whole PATCH: required attributes the resource had are still there (RFC 7644 3.5.2.2 asks
 * for "mutability" otherwise), and `schemas` keeps the core URN, names only this resource's schemas
 * where it gained entries, and lists each extension that now holds attributes.
 */
export function checkResource(before: JsonObject, after: JsonObject, schemas: ResourceSchemas): void {
  for (const attribute of schemas.core.attributes) {
    if (attribute.required && isAssigned(before[attribute.name]) && !isAssigned(after[attribute.name])) {
      throw new ScimError(400, `${attribute.name} is required and cannot be removed`, 'mutability');
    }
  }
  if (before.schemas === undefined && after.schemas === undefined) return;
  const known = [schemas.core, ...schemas.extensions].map((schema) => schema.id);
  const canonical = (urn: unknown) =>
    known.find((id) => typeof urn === 'string' && id.toLowerCase() === urn.toLowerCase());
  const held = asList(before.schemas);
  const listed: unknown[] = [];
  for (const urn of asList(after.schemas)) {
    const name = canonical(urn) ?? urn;
    if (!held.includes(urn) && canonical(urn) === undefined) {
      throw new ScimError(400, `${String(urn)} is not a schema of this resource`, 'invalidValue');
    }
    if (!listed.includes(name)) listed.push(name);
  }
  if (!listed.includes(schemas.core.id)) {
    throw new ScimError(400, `schemas must keep ${schemas.core.id}`, 'mutability');
  }
  for (const extension of schemas.extensions) {
    if (isPlainObject(after[extension.id]) && !listed.includes(extension.id)) listed.push(extension.id);
  }
  after.schemas = listed;
}
