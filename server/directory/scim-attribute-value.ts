/**
 * Reads a SCIM attribute path from a resource, for attribute mappings: `title`, `name.givenName`,
 * `emails[type eq "work"].value`, `emails[primary eq true].value`, and enterprise attributes by URN
 * (`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department`). Names are matched
 * ignoring case, as SCIM does.
 */
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATH =
  /^(?<attr>[A-Za-z][\w$-]*)(?:\[(?<key>[A-Za-z][\w$-]*) eq (?<value>"[^"]*"|true|false)\])?(?:\.(?<sub>[A-Za-z][\w$-]*))?$/;

function get(obj: unknown, name: string): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : (obj as Record<string, unknown>)[key];
}

export function readAttribute(resource: Record<string, unknown>, path: string): unknown {
  let base: unknown = resource;
  let rest = path;
  if (path.toLowerCase().startsWith(`${ENTERPRISE.toLowerCase()}:`)) {
    base = get(resource, ENTERPRISE);
    rest = path.slice(ENTERPRISE.length + 1);
  }
  const m = PATH.exec(rest);
  if (!m?.groups) throw new Error(`unsupported attribute path ${path}`);
  const { attr, key, value, sub } = m.groups as { attr: string; key?: string; value?: string; sub?: string };
  let found = get(base, attr);
  if (key !== undefined && value !== undefined) {
    if (!Array.isArray(found)) return undefined;
    const wanted: unknown = value.startsWith('"') ? value.slice(1, -1).toLowerCase() : value === 'true';
    const match = (e: unknown) => {
      const v = get(e, key);
      return (typeof v === 'string' ? v.toLowerCase() : v) === wanted;
    };
    // With no element marked primary, the first one is as good as any (RFC 7643 2.4).
    found = found.find(match) ?? (key.toLowerCase() === 'primary' && wanted === true ? found[0] : undefined);
  }
  const result = sub === undefined ? found : get(found, sub);
  return result === null || result === '' ? undefined : result;
}
