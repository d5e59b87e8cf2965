import { createHash, randomBytes } from 'node:crypto';
import type { Frame } from './disclosure-frame.js';

/**
 * Makes the claims a disclosure frame names selectively disclosable (RFC 9901 section 4.2): each
 * becomes a disclosure, base64url of `[salt, name, value]` (an object property) or `[salt, value]`
 * (an array element), replaced in the payload by its SHA-256 digest, in the object's `_sd` array or
 * as `{"...": digest}` in place of the element. Nested frames are applied first, so a disclosed
 * object carries the digests of its own disclosable members (recursive disclosures, section 4.2.6).
 * Each `_sd` is sorted, hiding the claims' original order (section 4.2.4.1). Salts are 128 bits.
 */
export interface Disclosed {
  payload: Record<string, unknown>;
  disclosures: string[];
}

export function discloseSelectively(claims: Record<string, unknown>, frame: Frame): Disclosed {
  const disclosures: string[] = [];
  const digestOf = (disclosure: unknown[]) => {
    const encoded = Buffer.from(JSON.stringify(disclosure)).toString('base64url');
    disclosures.push(encoded);
    return createHash('sha256').update(encoded, 'ascii').digest('base64url');
  };
  // One draw of randomness for the whole payload: a draw costs as much as the digest of a disclosure.
  const salts = randomBytes(16 * countMembers(claims));
  let drawn = 0;
  const salt = () => salts.subarray(16 * drawn, 16 * ++drawn).toString('base64url');

  const pack = (value: unknown, at: Frame | undefined): unknown => {
    if (!at || value === null || typeof value !== 'object') return value;
    const chosen = new Set((at._sd ?? []).map(String));
    if (Array.isArray(value))
      return value.map((element, i) => {
        const packed = pack(element, at[String(i)] as Frame | undefined);
        return chosen.has(String(i)) ? { '...': digestOf([salt(), packed]) } : packed;
      });
    const out: Record<string, unknown> = {};
    const digests: string[] = [];
    for (const [name, member] of Object.entries(value)) {
      const packed = pack(member, at[name] as Frame | undefined);
      if (chosen.has(name)) digests.push(digestOf([salt(), name, packed]));
      else out[name] = packed;
    }
    if (digests.length) out._sd = digests.sort();
    return out;
  };

  const payload = pack(claims, frame) as Record<string, unknown>;
  return { payload, disclosures };
}

/** How many salts a payload can need at most: one per member and element, at any depth. */
function countMembers(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const members = Array.isArray(value) ? value : Object.values(value);
  return members.reduce((n: number, member) => n + 1 + countMembers(member), 0);
}
