import { ScimError } from './scim-error.js';

type Json = Record<string, unknown>;

const ALWAYS = new Set(['id', 'schemas']);

function splitList(param: unknown): string[] | undefined {
  if (param === undefined || param === '') return undefined;
  if (typeof param !== 'string')
    throw new ScimError(400, 'attributes must be a comma-separated list', 'invalidValue');
  // `emails[type eq "work"]` (as some clients send) selects the attribute; the filter is ignored.
  return param
    .split(',')
    .map((a) =>
      a
        .trim()
        .replace(/\[.*\]$/, '')
        .toLowerCase(),
    )
    .filter(Boolean);
}

/** `urn:…:User:name.givenName` and `name.givenName` name the same thing; returns [top, sub?]. */
function pathOf(attr: string, resource: Json): [string, string | undefined] {
  const extension = Object.keys(resource).find(
    (k) => k.startsWith('urn:') && attr.startsWith(`${k.toLowerCase()}:`),
  );
  if (extension) return [extension.toLowerCase(), attr.slice(extension.length + 1)];
  const core = attr.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/, '');
  const [top, sub] = core.split('.', 2);
  return [top ?? core, sub];
}

/**
 * Whether `attributes` names `path` (a full `urn:…:name` path) or the schema it belongs to: how a
 * client asks for an attribute returned only on request (RFC 7643 section 7, `returned: request`).
 */
export function asksFor(attributes: unknown, path: string): boolean {
  const wanted = splitList(attributes) ?? [];
  const lower = path.toLowerCase();
  return wanted.some((a) => a === lower || lower.startsWith(`${a}:`));
}

/**
 * RFC 7644 section 3.4.2.5: `attributes` keeps only the listed attributes (plus id and schemas,
 * which are always returned); `excludedAttributes` removes the listed ones. Names ignore case.
 */
export function project(resource: Json, attributes: unknown, excluded: unknown): Json {
  const include = splitList(attributes);
  const exclude = splitList(excluded);
  if (!include && !exclude) return resource;
  const out: Json = {};
  for (const [key, value] of Object.entries(resource)) {
    const lower = key.toLowerCase();
    if (include && !ALWAYS.has(lower)) {
      const wanted = include.map((a) => pathOf(a, resource)).filter(([top]) => top === lower);
      if (!wanted.length) continue;
      const subs = wanted.map(([, sub]) => sub);
      out[key] = subs.includes(undefined) ? value : pick(value, subs as string[]);
      continue;
    }
    if (exclude && !ALWAYS.has(lower)) {
      const dropped = exclude.map((a) => pathOf(a, resource)).filter(([top]) => top === lower);
      if (dropped.some(([, sub]) => sub === undefined)) continue;
      out[key] = dropped.length
        ? omit(
            value,
            dropped.map(([, sub]) => sub as string),
          )
        : value;
      continue;
    }
    out[key] = value;
  }
  return out;
}

const pickOne = (v: unknown, subs: string[], keep: boolean): unknown => {
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v as Json).filter(([k]) => subs.includes(k.toLowerCase()) === keep),
  );
};
const pick = (v: unknown, subs: string[]) =>
  Array.isArray(v) ? v.map((e) => pickOne(e, subs, true)) : pickOne(v, subs, true);
const omit = (v: unknown, subs: string[]) =>
  Array.isArray(v) ? v.map((e) => pickOne(e, subs, false)) : pickOne(v, subs, false);
