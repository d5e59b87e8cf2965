import { createHash, randomBytes } from 'node:crypto';
import type { MdocContext } from '@owf/mdoc';
import { base64url } from 'jose';

/**
 * What @owf/mdoc needs from the platform, as node:crypto gives it. Device signatures go through
 * `sign`, so the private key stays with the HolderCrypto; nothing here authenticates with a MAC.
 */
export function mdocContext(
  sign: (toBeSigned: Uint8Array) => Promise<Uint8Array> = () => {
    throw new Error('this context does not sign');
  },
): Pick<MdocContext, 'crypto' | 'cose'> {
  const unsupported = () => {
    throw new Error('the wallet neither verifies COSE through the library nor uses MACs');
  };
  return {
    crypto: {
      random: (length) => new Uint8Array(randomBytes(length)),
      digest: ({ digestAlgorithm, bytes }) =>
        new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
      calculateEphemeralMacKey: unsupported,
    },
    cose: {
      sign1: { sign: ({ toBeSigned }) => sign(toBeSigned), verify: unsupported },
      mac0: { sign: unsupported, verify: unsupported },
    },
  };
}

/**
 * A data element value as JSON can hold it, for listing and selecting: maps become objects, byte
 * strings base64url, dates (tdate) ISO 8601 and full-dates (DateOnly, which has toJSON) their text.
 */
export function jsonSafe(value: unknown): unknown {
  if (value instanceof Uint8Array) return base64url.encode(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), jsonSafe(v)]));
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === 'object') {
    const toJson = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof toJson === 'function') return toJson.call(value);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  }
  return value;
}
