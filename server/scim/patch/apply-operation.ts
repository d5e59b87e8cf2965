import type { ScimAttribute, ScimSchema } from '../schema/scim-attributes.js';
import { ScimError } from '../scim-error.js';
import {
  isUnset,
  isVacant,
  mergeComplex,
  normalizeComplexPatch,
  normalizeElements,
  normalizeScalar,
  single,
} from './attribute-values.js';
import { removeFiltered, setFiltered } from './filtered-values.js';
import { addElements, sameElement, withoutElements, withoutRepeats } from './multi-valued.js';
import type { PatchOperation } from './patch-body.js';
import { type PatchPath, parsePatchPath } from './patch-path.js';
import { asList, isAssigned, isPlainObject, type JsonObject, type ResourceSchemas } from './scim-resource.js';

export interface OperationContext {
  readonly schemas: ResourceSchemas;
  /** The resource's id, which Okta repeats in path-less replaces; any other id is an attempt to change it. */
  readonly id?: string;
}

const noTarget = (detail: string) => new ScimError(400, detail, 'noTarget');
const readOnly = (name: string) => new ScimError(400, `${name} is read-only`, 'mutability');

/** Applies one operation to the working copy in place (RFC 7644 3.5.2.1 to 3.5.2.3). */
export function applyOperation(
  resource: JsonObject,
  operation: PatchOperation,
  context: OperationContext,
): void {
  const { op, path, value } = operation;
  if (op === 'remove') {
    if (path === undefined) throw noTarget('remove needs a path (RFC 7644 section 3.5.2.2)');
    removeAt(resource, parsePatchPath(path, context.schemas), value);
  } else if (path === undefined) {
    setEach(resource, context.schemas.core, op, value, context);
  } else {
    setAt(resource, parsePatchPath(path, context.schemas), op, value, context);
  }
}

/** A path-less add or replace, or one whose path is a schema URN: each member names an attribute path. */
function setEach(
  resource: JsonObject,
  schema: ScimSchema,
  op: 'add' | 'replace',
  value: unknown,
  context: OperationContext,
) {
  if (!isPlainObject(value)) {
    throw new ScimError(400, 'without a path, the value must be an object of attributes', 'invalidValue');
  }
  // Members may be dotted ("name.givenName"), filtered or full URNs, as Entra sends them.
  const prefix = schema === context.schemas.core ? '' : `${schema.id}:`;
  for (const [key, item] of Object.entries(value)) {
    if (prefix === '' && key.toLowerCase() === 'id') {
      if (context.id !== undefined && item === context.id) continue;
      throw readOnly('id');
    }
    setAt(resource, parsePatchPath(prefix + key, context.schemas), op, item, context);
  }
}

function assertWritable(path: PatchPath): void {
  for (const target of [path.attribute, path.subAttribute]) {
    if (target?.mutability === 'readOnly') throw readOnly(target.name);
  }
}

function containerOf(resource: JsonObject, path: PatchPath, create: boolean): JsonObject | undefined {
  if (!path.inExtension) return resource;
  const held = resource[path.schema.id];
  if (isPlainObject(held)) return held;
  if (!create) return undefined;
  const created: JsonObject = {};
  resource[path.schema.id] = created;
  return created;
}

/** Drops what an operation left without content, so that "no value" has one form: absence. */
function tidy(resource: JsonObject, path: PatchPath, container: JsonObject, attribute: ScimAttribute): void {
  const value = container[attribute.name];
  if (attribute.multiValued) {
    const kept = asList(value).filter((element) => !isVacant(attribute, element));
    if (kept.length > 0) container[attribute.name] = kept;
    else delete container[attribute.name];
  } else if (!isAssigned(value) || (attribute.type === 'complex' && isVacant(attribute, value))) {
    delete container[attribute.name];
  }
  if (path.inExtension && Object.keys(container).length === 0) delete resource[path.schema.id];
}

function setAt(
  resource: JsonObject,
  path: PatchPath,
  op: 'add' | 'replace',
  value: unknown,
  context: OperationContext,
) {
  assertWritable(path);
  const { attribute, text } = path;
  if (!attribute) {
    if (path.inExtension && isUnset(value)) delete resource[path.schema.id];
    else setEach(resource, path.schema, op, value, context);
    return;
  }
  const container = containerOf(resource, path, true) ?? {};
  const held = container[attribute.name];
  if (path.filter) {
    setFiltered(container, path, attribute, path.filter, single(value, text));
  } else if (path.subAttribute) {
    const normalized = normalizeScalar(path.subAttribute, single(value, text), text);
    const target = isPlainObject(held) ? held : {};
    mergeComplex(target, { [path.subAttribute.name]: normalized ?? null });
    container[attribute.name] = target;
  } else if (attribute.multiValued) {
    // add appends (merging values already held); replace swaps the whole set (RFC 7644 3.5.2.1, 3.5.2.3).
    const elements = normalizeElements(attribute, value, text);
    const list = op === 'add' ? asList(held) : [];
    addElements(attribute, list, withoutRepeats(attribute, elements));
    container[attribute.name] = list;
  } else if (attribute.type === 'complex') {
    const raw = single(value, text);
    const target = isPlainObject(held) && !isUnset(raw) ? held : {};
    if (!isUnset(raw)) mergeComplex(target, normalizeComplexPatch(attribute, raw, text));
    container[attribute.name] = target;
  } else {
    container[attribute.name] = normalizeScalar(attribute, single(value, text), text);
  }
  tidy(resource, path, container, attribute);
}

function removeAt(resource: JsonObject, path: PatchPath, value: unknown): void {
  assertWritable(path);
  const { attribute } = path;
  if (!attribute) {
    if (!path.inExtension) throw noTarget('remove names an attribute, not the resource itself');
    delete resource[path.schema.id];
    return;
  }
  const container = containerOf(resource, path, false);
  const held = container?.[attribute.name];
  if (!container || held === undefined) return;
  const { filter, subAttribute } = path;
  if (filter) {
    removeFiltered(container, path, attribute, filter);
  } else if (subAttribute) {
    if (isPlainObject(held)) mergeComplex(held, { [subAttribute.name]: null });
  } else {
    // A remove with a value takes away only those values: Entra without its 2020 fix removes group
    // members as "path": "members" plus the members in "value".
    const removals = normalizeElements(attribute, value, path.text);
    if (removals.length === 0) delete container[attribute.name];
    else if (attribute.multiValued)
      container[attribute.name] = withoutElements(attribute, asList(held), removals);
    else if (removals.some((removal) => sameElement(attribute, held, removal)))
      delete container[attribute.name];
  }
  tidy(resource, path, container, attribute);
}
