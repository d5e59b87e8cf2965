import { createHash } from 'node:crypto';
import { check } from '../../oid4vp/verification/presentation-error.js';

/** A compact SD-JWT presentation (RFC 9901 §4): `<issuer JWT>~<disclosure>~…~[<KB-JWT>]`. */
export interface SdJwtPresentation {
  issuerJwt: string;
  disclosures: string[];
  keyBindingJwt?: string;
  /** Everything up to and including the last `~`: the input of the KB-JWT's `sd_hash` (§4.3.1). */
  sdJwt: string;
}

export function splitSdJwt(compact: string): SdJwtPresentation {
  const parts = compact.split('~');
  check(parts.length >= 2, 'malformed', 'not an SD-JWT (no "~" separator)');
  const last = parts[parts.length - 1] as string;
  const disclosures = parts.slice(1, -1);
  check(disclosures.every(Boolean), 'malformed', 'the SD-JWT has an empty disclosure');
  return {
    issuerJwt: parts[0] as string,
    disclosures,
    ...(last ? { keyBindingJwt: last } : {}),
    sdJwt: compact.slice(0, compact.length - last.length),
  };
}

/** `_sd_alg` values (IANA "Named Information Hash Algorithm") this verifier computes. */
const HASHES: Record<string, string> = { 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512' };

/** base64url(HASH(ASCII(input))): a disclosure digest (§4.2.3) or an `sd_hash` (§4.3.1). */
export function sdDigest(alg: string, input: string): string {
  const name = HASHES[alg];
  check(name, 'malformed', `unsupported _sd_alg ${alg}`);
  return createHash(name).update(input, 'ascii').digest('base64url');
}

interface Disclosure {
  /** Absent for an array element disclosure. */
  name?: string;
  value: unknown;
}

function decodeDisclosure(encoded: string): Disclosure {
  let arr: unknown;
  try {
    check(/^[A-Za-z0-9_-]+$/.test(encoded), 'tampered_disclosure', 'a disclosure is not base64url');
    arr = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    arr = undefined;
  }
  check(Array.isArray(arr), 'tampered_disclosure', 'a disclosure is not a base64url JSON array');
  check(typeof arr[0] === 'string', 'tampered_disclosure', 'a disclosure has no string salt');
  if (arr.length === 2) return { value: arr[1] };
  check(
    arr.length === 3 && typeof arr[1] === 'string',
    'tampered_disclosure',
    'a disclosure has a bad shape',
  );
  check(arr[1] !== '_sd' && arr[1] !== '...', 'tampered_disclosure', `a disclosure names ${arr[1]}`);
  return { name: arr[1], value: arr[2] };
}

/** Sets an own property, also for a name like `__proto__` that plain assignment would treat specially. */
const define = (obj: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(obj, name, { value, enumerable: true, writable: true, configurable: true });

/** Nesting deeper than this is refused rather than recursed into. */
const MAX_DEPTH = 64;

/**
 * The disclosed claims (RFC 9901 §7.1 step 3): every `_sd` digest and `{"...": digest}` array element
 * that a presented disclosure hashes to is replaced by what it discloses, recursively; the rest
 * (withheld claims, decoys) vanish. A disclosure referenced by no digest (not this credential's, or
 * altered), given twice, of the wrong kind for its place, or naming an existing claim is rejected.
 */
export function applyDisclosures(payload: Record<string, unknown>, encoded: string[], alg: string) {
  const byDigest = new Map<string, Disclosure>();
  for (const e of encoded) {
    const digest = sdDigest(alg, e);
    check(!byDigest.has(digest), 'tampered_disclosure', 'the same disclosure is presented twice');
    byDigest.set(digest, decodeDisclosure(e));
  }
  const seen = new Set<string>();
  const take = (digest: unknown): Disclosure | undefined => {
    check(typeof digest === 'string', 'malformed', 'a digest is not a string');
    check(!seen.has(digest), 'malformed', 'a digest appears more than once in the credential');
    seen.add(digest);
    return byDigest.get(digest);
  };

  const walk = (node: unknown, depth: number): unknown => {
    check(depth <= MAX_DEPTH, 'malformed', 'the credential is nested too deeply');
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (const el of node) {
        const ref = el && typeof el === 'object' && !Array.isArray(el) && Object.keys(el).length === 1;
        if (!ref || !('...' in el)) {
          out.push(walk(el, depth + 1));
          continue;
        }
        const d = take((el as Record<string, unknown>)['...']);
        if (!d) continue;
        check(d.name === undefined, 'tampered_disclosure', 'a claim disclosure is referenced from an array');
        out.push(walk(d.value, depth + 1));
      }
      return out;
    }
    if (!node || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj))
      if (k !== '_sd' && k !== '_sd_alg') define(out, k, walk(v, depth + 1));
    if (obj._sd === undefined) return out;
    check(Array.isArray(obj._sd), 'malformed', '_sd is not an array');
    for (const digest of obj._sd) {
      const d = take(digest);
      if (!d) continue;
      check(
        d.name !== undefined,
        'tampered_disclosure',
        'an array element disclosure is referenced from _sd',
      );
      check(!Object.hasOwn(out, d.name), 'tampered_disclosure', `claim ${d.name} is disclosed twice`);
      define(out, d.name, walk(d.value, depth + 1));
    }
    return out;
  };

  const claims = walk(payload, 0) as Record<string, unknown>;
  const unused = [...byDigest.keys()].filter((digest) => !seen.has(digest));
  check(unused.length === 0, 'tampered_disclosure', 'a disclosure does not belong to the credential');
  return claims;
}

/** True when `value` holds a digest anywhere (an `_sd` member or a `{"...": digest}` element). */
export function holdsDigests(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || !value || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => holdsDigests(v, depth + 1));
  if ('_sd' in value || '...' in value) return true;
  return Object.values(value).some((v) => holdsDigests(v, depth + 1));
}
