import type { ScimResourceType } from '../schema/scim-attributes.js';
import { checkStoredValues } from '../schema/value-limits.js';
import { ScimError } from '../scim-error.js';
import { applyOperation } from './apply-operation.js';
import { changedPaths } from './changed-paths.js';
import { parsePatchBody } from './patch-body.js';
import { checkResource, keepOnePrimary, primaryValues } from './resource-invariants.js';
import { resourceSchemas } from './scim-resource.js';

export { MAX_PATCH_OPERATIONS, PATCH_OP_SCHEMA } from './patch-body.js';

export interface PatchResult {
  /** The patched resource: a new object; the one passed in is never changed. */
  resource: Record<string, unknown>;
  /** Canonical paths of the attributes whose value changed, e.g. `active`, `name.givenName`, `emails`. */
  changedPaths: string[];
}

export interface PatchOptions {
  /**
   * The resource's id. Okta repeats it in path-less replaces (`{"id": …, "displayName": …}`); with it
   * given, that id is accepted as no change, while any other id is refused as a change of `id`.
   */
  id?: string;
}

/**
 * Applies a SCIM PATCH request body (RFC 7644 section 3.5.2) to a User or Group in SCIM wire form,
 * all operations or none: they run in order on a deep copy, and the first failure throws a
 * ScimError (status 400 with its scimType) before anything is returned. Tolerates what Entra ID and
 * Okta send: any casing of ops and attribute names, "True"/"False" booleans, path-less values with
 * dotted, filtered or URN keys, a bare manager id, and member removal by value. The result holds
 * only strings the database can store (see value-limits.ts); POST and PUT bodies pass here too.
 */
export function applyPatch(
  resource: Record<string, unknown>,
  body: unknown,
  resourceType: ScimResourceType,
  options: PatchOptions = {},
): PatchResult {
  const operations = parsePatchBody(body);
  const schemas = resourceSchemas(resourceType);
  const working = structuredClone(resource);
  const context = { schemas, id: options.id };
  for (const [index, operation] of operations.entries()) {
    try {
      const primaryBefore = primaryValues(working, schemas);
      applyOperation(working, operation, context);
      keepOnePrimary(working, schemas, primaryBefore);
    } catch (e) {
      if (!(e instanceof ScimError)) throw e;
      const target = operation.path === undefined ? '' : ` ${operation.path}`;
      throw new ScimError(
        e.status,
        `Operations[${index}] (${operation.op}${target}): ${e.detail}`,
        e.scimType,
      );
    }
  }
  checkResource(resource, working, schemas);
  checkStoredValues(resourceType, working, resource);
  return { resource: working, changedPaths: changedPaths(resource, working, schemas) };
}
