import type { ScimAttribute } from '../schema/scim-attributes.js';
import { ScimError } from '../scim-error.js';
import { isUnset, mergeComplex, normalizeComplexPatch, normalizeScalar } from './attribute-values.js';
import { equalityConstraints, matchesFilter } from './filter-match.js';
import type { PatchPath } from './patch-path.js';
import { asList, isPlainObject, type JsonObject } from './scim-resource.js';
import type { ValueFilter } from './value-filter.js';

/** Operations whose path picks values of a multi-valued attribute by filter: `emails[type eq "work"]…`. */

const noTarget = (detail: string) => new ScimError(400, detail, 'noTarget');

/**
 * RFC 7644 3.5.2.3 answers a filter that matches nothing with noTarget, but Entra sets
 * `emails[type eq "work"].value` on users without a work e-mail and expects one to appear. A filter
 * made only of `eq` tests describes the value it looks for, so that value is created; any other
 * filter still gets noTarget.
 */
function created(path: PatchPath, filter: ValueFilter, patch: JsonObject): JsonObject {
  const constraints = equalityConstraints(filter);
  if (!constraints) throw noTarget(`no value matches ${path.text}, and its filter cannot describe a new one`);
  const element: JsonObject = {};
  for (const { attribute, value } of constraints) {
    element[attribute.name] = normalizeScalar(attribute, value, path.text);
  }
  mergeComplex(element, patch);
  return element;
}

/**
 * add or replace at a filtered path (the two act alike here): the sub-attribute, or the sub-attributes
 * the value names, of every matching value are set (RFC 7644 3.5.2.3); an unset value removes them.
 */
export function setFiltered(
  container: JsonObject,
  path: PatchPath,
  attribute: ScimAttribute,
  filter: ValueFilter,
  value: unknown,
): void {
  const list = asList(container[attribute.name]);
  container[attribute.name] = list;
  const matched = list.filter((element) => matchesFilter(filter, element));
  const sub = path.subAttribute;
  if (sub) {
    const normalized = normalizeScalar(sub, value, path.text);
    for (const element of matched) {
      if (isPlainObject(element)) mergeComplex(element, { [sub.name]: normalized ?? null });
    }
    // Clearing a sub-attribute of values that do not exist leaves nothing to do.
    if (matched.length === 0 && normalized !== undefined)
      list.push(created(path, filter, { [sub.name]: normalized }));
  } else if (attribute.type !== 'complex') {
    if (matched.length === 0) throw noTarget(`no value matches ${path.text}`);
    const normalized = normalizeScalar(attribute, value, path.text);
    const replaced = list.map((element) => (matched.includes(element) ? normalized : element));
    container[attribute.name] = replaced.filter((element) => element !== undefined);
  } else if (isUnset(value)) {
    container[attribute.name] = list.filter((element) => !matched.includes(element));
  } else {
    const patch = normalizeComplexPatch(attribute, value, path.text);
    for (const element of matched) if (isPlainObject(element)) mergeComplex(element, patch);
    if (matched.length === 0) list.push(created(path, filter, patch));
  }
}

/**
 * remove at a filtered path: the matching values, or their sub-attribute. RFC 7644 3.5.2.2 (unlike
 * 3.5.2.3 for replace) asks no noTarget when nothing matches, and answering one would fail Entra's
 * retried member removals, so nothing is removed and nothing is reported.
 */
export function removeFiltered(
  container: JsonObject,
  path: PatchPath,
  attribute: ScimAttribute,
  filter: ValueFilter,
) {
  const list = asList(container[attribute.name]);
  const matched = list.filter((element) => matchesFilter(filter, element));
  const sub = path.subAttribute;
  if (!sub) container[attribute.name] = list.filter((element) => !matched.includes(element));
  else for (const element of matched) if (isPlainObject(element)) mergeComplex(element, { [sub.name]: null });
}
