import { canonicalJson } from '../../audit/canonical-json.js';
import type { ScimAttribute } from '../schema/scim-attributes.js';
import {
  asList,
  isAssigned,
  isPlainObject,
  type JsonObject,
  namespaces,
  type ResourceSchemas,
} from './scim-resource.js';

/** One comparable form per attribute value: unassigned is one state, and multi-valued order is no change. */
function comparable(attribute: ScimAttribute, value: unknown): string {
  if (!isAssigned(value)) return '';
  if (!attribute.multiValued) return canonicalJson(value);
  return canonicalJson(
    asList(value)
      .map((element) => canonicalJson(element))
      .sort(),
  );
}

/**
 * The attributes whose value differs between two states of a resource, in schema order: core
 * attributes by name, the sub-attributes of a single-valued complex core attribute one by one
 * (`name.givenName`), and extension attributes by full URN path (`urn:…:User:manager`). The caller
 * decides from them whether a credential must be renewed, so a no-op PATCH yields none.
 */
export function changedPaths(before: JsonObject, after: JsonObject, schemas: ResourceSchemas): string[] {
  const changed: string[] = [];
  for (const { attributes, prefix, schema } of namespaces(before, schemas)) {
    const old = prefix === '' ? before : before[schema.id];
    const now = prefix === '' ? after : after[schema.id];
    const read = (container: unknown, name: string) =>
      isPlainObject(container) ? container[name] : undefined;
    for (const attribute of attributes) {
      const [a, b] = [read(old, attribute.name), read(now, attribute.name)];
      if (prefix === '' && attribute.type === 'complex' && !attribute.multiValued) {
        for (const sub of attribute.subAttributes ?? []) {
          if (comparable(sub, read(a, sub.name)) !== comparable(sub, read(b, sub.name))) {
            changed.push(`${attribute.name}.${sub.name}`);
          }
        }
      } else if (comparable(attribute, a) !== comparable(attribute, b)) {
        changed.push(`${prefix}${attribute.name}`);
      }
    }
  }
  return changed;
}
