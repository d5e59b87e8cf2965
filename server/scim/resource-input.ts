import { applyPatch, PATCH_OP_SCHEMA } from './patch/apply-patch.js';
import { COMMON_ATTRIBUTES, RESOURCE_SCHEMAS, type ScimResourceType } from './schema/scim-attributes.js';
import { ScimError } from './scim-error.js';

type Json = Record<string, unknown>;

const readOnly = new Set(['id', 'meta', 'groups']);

/**
 * A POST or PUT body as the resource to store: read-only and unknown attributes dropped (RFC 7644
 * 3.3 / 3.5.1: a client may send them, the server ignores them), names in canonical case, and values
 * normalised the way PATCH normalises them ("True" to true, one primary, a bare manager id) by
 * replaying the body as one path-less replace onto an empty resource.
 */
export function resourceFromBody(body: unknown, type: ScimResourceType): Json {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ScimError(400, 'the body must be a JSON object', 'invalidSyntax');
  }
  const { core, extensions } = RESOURCE_SCHEMAS[type];
  const known = new Map(
    [...COMMON_ATTRIBUTES, ...core.attributes].map((a) => [a.name.toLowerCase(), a.name]),
  );
  const extensionIds = new Map(extensions.map((e) => [e.id.toLowerCase(), e]));
  const value: Json = {};
  for (const [key, v] of Object.entries(body as Json)) {
    const lower = key.toLowerCase();
    if (readOnly.has(lower) || lower === 'schemas' || v === null) continue;
    const extension = extensionIds.get(lower);
    if (extension && v && typeof v === 'object' && !Array.isArray(v)) {
      const names = new Set(extension.attributes.map((a) => a.name.toLowerCase()));
      const kept = Object.fromEntries(
        Object.entries(v as Json).filter(([k, x]) => names.has(k.toLowerCase()) && x !== null),
      );
      if (Object.keys(kept).length) value[extension.id] = kept;
    } else if (known.has(lower)) value[known.get(lower) as string] = v;
  }
  const schemas = [core.id, ...extensions.filter((e) => value[e.id] !== undefined).map((e) => e.id)];
  if (Object.keys(value).length === 0) return { schemas };
  const { resource } = applyPatch(
    { schemas },
    { schemas: [PATCH_OP_SCHEMA], Operations: [{ op: 'add', value }] },
    type,
  );
  return resource;
}

/** The string value of a required attribute, or 400 invalidValue naming it. */
export function requiredString(resource: Json, name: string): string {
  const v = resource[name];
  if (typeof v !== 'string' || !v.trim()) throw new ScimError(400, `${name} is required`, 'invalidValue');
  return v;
}
