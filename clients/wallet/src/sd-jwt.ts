import { createHash } from 'node:crypto';
import { base64url, decodeProtectedHeader } from 'jose';
import { expectCredential } from './errors.js';

/** A compact SD-JWT split into its parts (RFC 9901 §4): `<issuer JWT>~<disclosure>~…~[<KB-JWT>]`. */
export interface SdJwtParts {
  issuerJwt: string;
  disclosures: string[];
  keyBindingJwt?: string;
}

export function splitSdJwt(compact: string): SdJwtParts {
  const parts = compact.split('~');
  expectCredential(parts.length >= 2, 'format', 'not an SD-JWT (no "~" separator)');
  const issuerJwt = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  const disclosures = parts.slice(1, -1);
  expectCredential(
    issuerJwt.split('.').length === 3,
    'format',
    'the issuer-signed part is not a compact JWS',
  );
  expectCredential(disclosures.every(Boolean), 'format', 'empty disclosure');
  return { issuerJwt, disclosures, ...(last ? { keyBindingJwt: last } : {}) };
}

export const decodeJwtPart = (jwt: string, index: 0 | 1): Record<string, unknown> =>
  index === 0
    ? (decodeProtectedHeader(jwt) as Record<string, unknown>)
    : (JSON.parse(new TextDecoder().decode(base64url.decode(jwt.split('.')[1] ?? ''))) as Record<
        string,
        unknown
      >);

/** base64url(SHA-256(ASCII(disclosure))), the digest the issuer put in the payload (RFC 9901 §4.2.3). */
export const disclosureDigest = (disclosure: string) =>
  base64url.encode(createHash('sha256').update(disclosure, 'ascii').digest());

interface Disclosure {
  encoded: string;
  /** Absent for an array element disclosure. */
  name?: string;
  value: unknown;
}

function decodeDisclosure(encoded: string): Disclosure {
  let arr: unknown;
  try {
    arr = JSON.parse(new TextDecoder().decode(base64url.decode(encoded)));
  } catch {
    arr = undefined;
  }
  expectCredential(Array.isArray(arr), 'disclosures', 'a disclosure is not a base64url JSON array');
  expectCredential(typeof arr[0] === 'string', 'disclosures', 'a disclosure has no string salt');
  if (arr.length === 2) return { encoded, value: arr[1] };
  expectCredential(
    arr.length === 3 && typeof arr[1] === 'string',
    'disclosures',
    'a disclosure has a bad shape',
  );
  expectCredential(arr[1] !== '_sd' && arr[1] !== '...', 'disclosures', `forbidden claim name ${arr[1]}`);
  return { encoded, name: arr[1], value: arr[2] };
}

/**
 * Rebuilds the disclosed claims from the issuer-signed payload and the disclosures (RFC 9901
 * §7.1 step 3): digests in `_sd` and `{"...": digest}` are replaced by what they disclose,
 * recursively; unmatched digests (decoys, withheld claims) vanish. A digest seen twice, a disclosure
 * of the wrong kind for its place, a claim that already exists, or an unused disclosure is rejected.
 */
export function applyDisclosures(payload: Record<string, unknown>, encoded: string[]) {
  const alg = payload._sd_alg ?? 'sha-256';
  expectCredential(alg === 'sha-256', 'disclosures', `unsupported _sd_alg ${String(alg)}`);
  const byDigest = new Map<string, Disclosure>();
  for (const e of encoded) {
    const digest = disclosureDigest(e);
    expectCredential(!byDigest.has(digest), 'disclosures', 'the same disclosure appears twice');
    byDigest.set(digest, decodeDisclosure(e));
  }
  const seen = new Set<string>();
  const used = new Set<string>();
  const take = (digest: unknown): Disclosure | undefined => {
    expectCredential(typeof digest === 'string', 'disclosures', 'a digest is not a string');
    expectCredential(!seen.has(digest), 'disclosures', 'a digest appears more than once');
    seen.add(digest);
    const d = byDigest.get(digest);
    if (d) used.add(digest);
    return d;
  };

  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (const el of node) {
        const isRef =
          el && typeof el === 'object' && !Array.isArray(el) && Object.keys(el).length === 1 && '...' in el;
        if (!isRef) {
          out.push(walk(el));
          continue;
        }
        const d = take((el as Record<string, unknown>)['...']);
        if (!d) continue;
        expectCredential(
          d.name === undefined,
          'disclosures',
          'an object disclosure is referenced from an array',
        );
        out.push(walk(d.value));
      }
      return out;
    }
    if (!node || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) if (k !== '_sd' && k !== '_sd_alg') out[k] = walk(v);
    const sd = obj._sd;
    if (sd !== undefined) {
      expectCredential(Array.isArray(sd), 'disclosures', '_sd is not an array');
      for (const digest of sd) {
        const d = take(digest);
        if (!d) continue;
        expectCredential(
          d.name !== undefined,
          'disclosures',
          'an array element disclosure is referenced from _sd',
        );
        expectCredential(!(d.name in out), 'disclosures', `claim ${d.name} is both disclosed and plain`);
        out[d.name] = walk(d.value);
      }
    }
    return out;
  };

  const claims = walk(payload) as Record<string, unknown>;
  expectCredential(
    used.size === byDigest.size,
    'disclosures',
    'a disclosure is not referenced by any digest',
  );
  const disclosed = [...byDigest.values()].map((d) => ({ name: d.name, value: d.value }));
  return { claims, disclosed };
}
