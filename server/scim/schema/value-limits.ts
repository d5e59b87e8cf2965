import { ScimError } from '../scim-error.js';
import type { ScimResourceType } from './scim-attributes.js';

/**
 * How long a stored string may be, in characters (code points). Attributes kept in their own
 * indexed column get the short limit: PostgreSQL refuses a btree entry over about 2,700 bytes, and
 * 512 characters stay under it even at 4 bytes each, after `lower()`. That is still far above what
 * the directories send (Entra: userPrincipalName 113, displayName 256; Okta: login 100, group
 * name 255). A limit, rather than hash indexes, keeps the case-insensitive unique indexes that
 * userName and group displayName need (PostgreSQL has no unique hash index). Every other string
 * has the long limit, room enough for a base64 X.509 certificate.
 */
export const INDEXED_MAX_LENGTH = 512;
export const MAX_STRING_LENGTH = 16_384;

/** Attributes stored in an indexed column, by dotted path, lower case. */
export const INDEXED_ATTRIBUTES: Readonly<Record<ScimResourceType, readonly string[]>> = {
  User: ['username', 'externalid', 'displayname', 'name.givenname', 'name.familyname'],
  Group: ['displayname', 'externalid'],
};

export const maxLengthOf = (type: ScimResourceType, path: string): number =>
  INDEXED_ATTRIBUTES[type].includes(path.toLowerCase()) ? INDEXED_MAX_LENGTH : MAX_STRING_LENGTH;

/** Half of a surrogate pair with no other half: not a Unicode scalar value, so not storable as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const invalid = (path: string, why: string) => new ScimError(400, `${path} ${why}`, 'invalidValue');

function checkString(type: ScimResourceType, path: string, value: string): void {
  // PostgreSQL stores neither a NUL nor half of a surrogate pair (jsonb refuses both); say so here.
  if (value.includes('\u0000')) throw invalid(path, 'contains a NUL character');
  if (LONE_SURROGATE.test(value)) throw invalid(path, 'contains an unpaired UTF-16 surrogate');
  const max = maxLengthOf(type, path);
  if (value.length > max && [...value].length > max) {
    throw invalid(path, `is longer than ${max} characters`);
  }
}

function stringsOf(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (value !== null && typeof value === 'object')
    for (const v of Object.values(value)) stringsOf(v, into);
  return into;
}

/**
 * Refuses, as 400 invalidValue naming the attribute, any string of a resource about to be stored
 * that the database could not store or index: so no such value ever reaches SQL as an error.
 * Paths name multi-valued elements without an index (`emails.value`), as SCIM does. Strings the
 * stored resource `before` already holds pass: the database took them once, and a PATCH that
 * deactivates a user must not fail over a value stored before these limits existed.
 */
export function checkStoredValues(
  type: ScimResourceType,
  resource: Record<string, unknown>,
  before: Record<string, unknown> = {},
): void {
  const stored = stringsOf(before);
  const walk = (value: unknown, path: string, separator: string): void => {
    if (typeof value === 'string') {
      if (!stored.has(value)) checkString(type, path, value);
    } else if (Array.isArray(value)) for (const element of value) walk(element, path, separator);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        checkString(type, path === '' ? 'an attribute name' : `an attribute name in ${path}`, key);
        // An extension's attributes are named `<URN>:<name>`, sub-attributes `<parent>.<name>`.
        walk(inner, path === '' ? key : `${path}${separator}${key}`, key.startsWith('urn:') ? ':' : '.');
      }
    }
  };
  walk(resource, '', '.');
}
