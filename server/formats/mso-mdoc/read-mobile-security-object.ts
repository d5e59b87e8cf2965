import type { KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { check } from '../../oid4vp/verification/presentation-error.js';
import type { CborValue } from './cbor-values.js';
import { publicKeyOfCoseKey } from './cose-key.js';
import { decodeCborSafely } from './decode-cbor-safely.js';
import { bytesOf, type CborMap, embeddedOf, field, mapOf, tdateOf, textOf, uintOf } from './read-cbor.js';

/** The MSO (ISO 18013-5 9.1.2.4) as far as the verifier uses it. */
export interface MobileSecurityObject {
  docType: string;
  /** node:crypto's name of its digest algorithm. */
  digestAlgorithm: 'sha256' | 'sha384' | 'sha512';
  /** Digests by namespace, then digestID. */
  valueDigests: Map<string, Map<number, Uint8Array>>;
  deviceKey: { jwk: JWK; key: KeyObject };
  signed: Date;
  validFrom: Date;
  validUntil: Date;
  status?: { idx: number; uri: string };
}

const DIGEST_ALGORITHMS = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

/**
 * The MSO of a verified IssuerAuth payload, `MobileSecurityObjectBytes` (tag 24). Read only after
 * the issuer signature verified, so that nothing an untrusted party wrote is parsed more deeply than
 * the COSE envelope. Every member the verifier relies on must be there with its type (`malformed`);
 * a `status` without `status_list` names a mechanism this verifier cannot check (`status_unavailable`).
 */
export function readMobileSecurityObject(payload: Uint8Array, what: string): MobileSecurityObject {
  const m = `the MSO of ${what}`;
  const mso = mapOf(embeddedOf(decodeCborSafely(payload, `the payload of ${what}`), m).item, m);
  const version = textOf(field(mso, 'version', m), `the version of ${m}`);
  check(version.startsWith('1.'), 'malformed', `${m} has version ${version}, not 1.x`);
  const digestName = textOf(field(mso, 'digestAlgorithm', m), `the digestAlgorithm of ${m}`);
  const digestAlgorithm = DIGEST_ALGORITHMS[digestName as keyof typeof DIGEST_ALGORITHMS];
  check(digestAlgorithm, 'malformed', `${m} uses digest algorithm ${digestName}`);
  const deviceKeyInfo = mapOf(field(mso, 'deviceKeyInfo', m), `the deviceKeyInfo of ${m}`);
  const validity = mapOf(field(mso, 'validityInfo', m), `the validityInfo of ${m}`);
  const status = readStatus(mso.get('status'), m);
  return {
    docType: textOf(field(mso, 'docType', m), `the docType of ${m}`),
    digestAlgorithm,
    valueDigests: readValueDigests(field(mso, 'valueDigests', m), m),
    deviceKey: publicKeyOfCoseKey(field(deviceKeyInfo, 'deviceKey', m), `the deviceKey of ${m}`),
    signed: tdateOf(field(validity, 'signed', m), `validityInfo.signed of ${m}`),
    validFrom: tdateOf(field(validity, 'validFrom', m), `validityInfo.validFrom of ${m}`),
    validUntil: tdateOf(field(validity, 'validUntil', m), `validityInfo.validUntil of ${m}`),
    ...(status ? { status } : {}),
  };
}

function readValueDigests(value: CborValue, m: string): Map<string, Map<number, Uint8Array>> {
  const result = new Map<string, Map<number, Uint8Array>>();
  for (const [namespace, digests] of mapOf(value, `the valueDigests of ${m}`)) {
    const ns = textOf(namespace, `a namespace of the valueDigests of ${m}`);
    const byId = new Map<number, Uint8Array>();
    for (const [id, digest] of mapOf(digests, `the valueDigests of ${ns} in ${m}`))
      byId.set(uintOf(id, `a digestID in ${ns}`), bytesOf(digest, `a digest in ${ns}`));
    result.set(ns, byId);
  }
  return result;
}

/** `status` → `status_list` → {idx, uri}: the Token Status List's CBOR reference (its section 6.3). */
function readStatus(value: CborValue, m: string): { idx: number; uri: string } | undefined {
  if (value === undefined) return undefined;
  const status: CborMap = mapOf(value, `the status of ${m}`);
  const list = status.get('status_list');
  check(list !== undefined, 'status_unavailable', `${m} uses a status mechanism other than status_list`);
  const ref = mapOf(list, `status.status_list of ${m}`);
  return {
    idx: uintOf(field(ref, 'idx', `status.status_list of ${m}`), `status.status_list.idx of ${m}`),
    uri: textOf(field(ref, 'uri', `status.status_list of ${m}`), `status.status_list.uri of ${m}`),
  };
}
