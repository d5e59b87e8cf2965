import { type KeyObject, verify } from 'node:crypto';
import { check, reject } from '../../oid4vp/verification/presentation-error.js';
import type { CborKey, CborValue } from './cbor-values.js';
import { decodeCborSafely } from './decode-cbor-safely.js';
import { encodeCbor } from './encode-cbor.js';
import { arrayOf, bytesOf, type CborMap, mapOf } from './read-cbor.js';

/** COSE header labels used here (RFC 9052 section 3.1, RFC 9360 for x5chain, RFC 9596 for typ). */
export const COSE_HEADER = { alg: 1, crit: 2, kid: 4, typ: 16, x5chain: 33 } as const;

/**
 * ECDSA with SHA-256: ES256 (-7, RFC 9053) and ESP256 (-9, fully specified ECDSA P-256 with SHA-256,
 * draft-ietf-jose-fully-specified-algorithms), which HAIP allows and @owf/mdoc 0.6.0 does not know. Both are our P-256 keys' signature.
 */
export const COSE_ALG = { ES256: -7, ESP256: -9 } as const;
export type CoseEcdsaP256 = (typeof COSE_ALG)[keyof typeof COSE_ALG];
export const P256_ALGS: readonly number[] = [COSE_ALG.ES256, COSE_ALG.ESP256];

/** Sig_structure of a COSE_Sign1 (RFC 9052 section 4.4), no external AAD: the bytes signed. */
export function sigStructure(protectedBytes: Uint8Array, payload: Uint8Array): Uint8Array {
  return encodeCbor(['Signature1', protectedBytes, new Uint8Array(0), payload]);
}

/** A COSE_Sign1 taken apart, its headers checked for the types this verifier relies on. */
export interface CoseSign1 {
  /** The protected header bucket exactly as received: the signature covers these bytes. */
  protectedBytes: Uint8Array;
  protectedHeaders: CborMap;
  unprotectedHeaders: CborMap;
  /** Null when detached (a DeviceSignature). */
  payload: Uint8Array | null;
  signature: Uint8Array;
  alg: number;
  /** Certificates (DER, leaf first) from x5chain, protected or not; undefined without one. */
  x5chain?: Uint8Array[];
  kid?: Uint8Array;
}

/**
 * Reads an untagged COSE_Sign1 `[protected: bstr, unprotected: map, payload: bstr / nil, signature:
 * bstr]`. Refused as `malformed`: another shape, a protected bucket that is not a CBOR map, a header
 * label in both buckets, `crit` (no extension is understood here), a kid that is not a byte string,
 * an x5chain that is not one byte string or a non-empty array of them. `unsupported_algorithm`: an
 * alg missing from the protected bucket or not in `allowedAlgs`.
 */
export function readCoseSign1(value: CborValue, what: string, allowedAlgs: readonly number[]): CoseSign1 {
  const parts = arrayOf(value, what);
  check(parts.length === 4, 'malformed', `${what} is not a COSE_Sign1 (an array of 4)`);
  const [protectedPart, unprotectedPart, payloadPart, signaturePart] = parts;
  const protectedBytes = bytesOf(protectedPart, `the protected header of ${what}`);
  const protectedHeaders =
    protectedBytes.length === 0
      ? new Map<CborKey, CborValue>()
      : mapOf(
          decodeCborSafely(protectedBytes, `the protected header of ${what}`, { tags: new Set() }),
          `the protected header of ${what}`,
        );
  const unprotectedHeaders = mapOf(unprotectedPart, `the unprotected header of ${what}`);
  for (const label of protectedHeaders.keys())
    check(!unprotectedHeaders.has(label), 'malformed', `${what} has header ${String(label)} in both buckets`);
  check(
    !protectedHeaders.has(COSE_HEADER.crit),
    'malformed',
    `${what} names critical headers (crit) this verifier does not understand`,
  );
  check(
    payloadPart === null || payloadPart instanceof Uint8Array,
    'malformed',
    `the payload of ${what} is neither a byte string nor nil`,
  );
  const signature = bytesOf(signaturePart, `the signature of ${what}`);
  const alg = protectedHeaders.get(COSE_HEADER.alg);
  if (alg === undefined)
    reject(
      'unsupported_algorithm',
      `${what} has no alg in its protected header (ISO 18013-5 requires it there)`,
    );
  check(typeof alg === 'number', 'malformed', `the alg of ${what} is not an integer`);
  check(
    allowedAlgs.includes(alg),
    'unsupported_algorithm',
    `${what} uses COSE alg ${alg}, not one of ${allowedAlgs.join(', ')}`,
  );
  const header = (label: number) => protectedHeaders.get(label) ?? unprotectedHeaders.get(label);
  const kid = header(COSE_HEADER.kid);
  check(
    kid === undefined || kid instanceof Uint8Array,
    'malformed',
    `the kid of ${what} is not a byte string`,
  );
  const chain = header(COSE_HEADER.x5chain);
  check(
    chain === undefined ||
      chain instanceof Uint8Array ||
      (Array.isArray(chain) && chain.length > 0 && chain.every((c) => c instanceof Uint8Array)),
    'malformed',
    `the x5chain of ${what} is neither a certificate nor a non-empty array of certificates`,
  );
  const x5chain =
    chain === undefined ? undefined : chain instanceof Uint8Array ? [chain] : (chain as Uint8Array[]);
  return {
    protectedBytes,
    protectedHeaders,
    unprotectedHeaders,
    payload: payloadPart,
    signature,
    alg,
    ...(x5chain ? { x5chain } : {}),
    ...(kid ? { kid } : {}),
  };
}

/**
 * Whether `sign1`'s signature over `payload` (its own, or the detached one) verifies with the P-256
 * `key`. ECDSA signatures in COSE are r||s, 64 bytes for P-256 (RFC 9053 section 2.1).
 */
export function coseSign1Verifies(sign1: CoseSign1, payload: Uint8Array, key: KeyObject): boolean {
  if (sign1.signature.length !== 64 || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return false;
  try {
    return verify(
      'sha256',
      sigStructure(sign1.protectedBytes, payload),
      { key, dsaEncoding: 'ieee-p1363' },
      sign1.signature,
    );
  } catch {
    return false;
  }
}
