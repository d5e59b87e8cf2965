import { ScimError } from '../scim-error.js';
import { isPlainObject, type JsonObject } from './scim-resource.js';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** More operations than any directory sends in one request; bounds the work one request can ask for. */
export const MAX_PATCH_OPERATIONS = 1000;

export interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace';
  /** Undefined when the operation targets the resource itself. */
  readonly path?: string;
  /** Undefined when the operation carries no "value" member. */
  readonly value?: unknown;
}

const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');

/**
 * A member by name, exactly or else case-insensitively: Entra asks that structural names not be
 * matched case-sensitively, and some clients send "operations" or "Path".
 */
function member(object: JsonObject, name: string): unknown {
  if (name in object) return object[name];
  const key = Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : object[key];
}

function parseOperation(raw: unknown, index: number): PatchOperation {
  const where = `Operations[${index}]`;
  if (!isPlainObject(raw)) throw invalidSyntax(`${where} must be an object`);
  const op = member(raw, 'op');
  // Entra sends "Add", "Replace" and "Remove" (RFC 7644 3.5.2 names them in lower case).
  const name = typeof op === 'string' ? op.toLowerCase() : undefined;
  if (name !== 'add' && name !== 'remove' && name !== 'replace') {
    throw invalidSyntax(`${where}.op must be "add", "remove" or "replace"`);
  }
  const path = member(raw, 'path');
  if (path !== undefined && path !== null && typeof path !== 'string') {
    throw invalidSyntax(`${where}.path must be a string`);
  }
  if (typeof path === 'string' && path.trim() === '')
    throw new ScimError(400, `${where}.path is empty`, 'invalidPath');
  const value = member(raw, 'value');
  if (name !== 'remove' && value === undefined) throw invalidSyntax(`${where} (${name}) needs a "value"`);
  return { op: name, path: typeof path === 'string' ? path : undefined, value };
}

/** Checks a PATCH body's structure (RFC 7644 3.5.2) and returns its operations. */
export function parsePatchBody(body: unknown): PatchOperation[] {
  if (!isPlainObject(body)) throw invalidSyntax('the body must be a PatchOp message object');
  const schemas = member(body, 'schemas');
  const isPatchOp = (s: unknown) =>
    typeof s === 'string' && s.toLowerCase() === PATCH_OP_SCHEMA.toLowerCase();
  if (!Array.isArray(schemas) || !schemas.some(isPatchOp)) {
    throw invalidSyntax(`schemas must contain ${PATCH_OP_SCHEMA}`);
  }
  const operations = member(body, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0) {
    throw invalidSyntax('Operations must be a non-empty array');
  }
  if (operations.length > MAX_PATCH_OPERATIONS) {
    throw invalidSyntax(
      `Operations holds ${operations.length} operations; at most ${MAX_PATCH_OPERATIONS} are taken`,
    );
  }
  return operations.map(parseOperation);
}
