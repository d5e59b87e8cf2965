import type { KeyObject } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { check, reject } from '../../oid4vp/verification/presentation-error.js';
import type { StatusBits } from '../../status-list/status-list-encoding.js';
import { CborTag } from './cbor-values.js';
import { type CoseSign1, coseSign1Verifies, P256_ALGS, readCoseSign1 } from './cose-sign1.js';
import { decodeCborSafely } from './decode-cbor-safely.js';
import { bytesOf, field, mapOf, textOf, uintOf } from './read-cbor.js';
import { COSE_SIGN1_TAG, CWT_CLAIM, STATUS_LIST_CWT_TYPE } from './sign-status-list-cwt.js';

/** The key that must have signed the token: given, or found from its headers (x5chain, kid). */
export type StatusListCwtKeyResolver =
  | KeyObject
  | ((headers: Pick<CoseSign1, 'x5chain' | 'kid'>) => KeyObject | Promise<KeyObject>);

export interface StatusListCwtChecks {
  /** `status.status_list.uri` of the credential: the token's subject must be it. */
  uri: string;
  key: StatusListCwtKeyResolver;
  /** Seconds since the epoch. */
  now: number;
  skewSeconds?: number;
  /** Bytes of the token at most. Default 4 MiB. */
  maxBytes?: number;
  /** Bytes of the decompressed list at most (a verifier decompresses what it did not make). Default 16 MiB. */
  maxStatusBytes?: number;
}

export interface VerifiedStatusListCwt {
  bits: StatusBits;
  /** The compressed list as carried. */
  lst: Uint8Array;
  /** The decompressed byte array: readStatus(statuses, bits, idx) reads an entry. */
  statuses: Uint8Array;
  issuedAt: Date;
  expiresAt?: Date;
  ttl?: number;
  /** The token's own headers, for the caller's trust decision about the key. */
  x5chain?: Uint8Array[];
  kid?: Uint8Array;
}

const WHAT = 'the status list token';

/**
 * Reads a Status List Token in CWT form (Token Status List, "Status List Token in CWT Format" and
 * "Validation Rules" steps 3-5): a COSE_Sign1_Tagged with typ `application/statuslist+cwt`, ES256
 * or ESP256, whose signature verifies with `checks.key`, whose subject (2) is the credential's
 * `uri`, issued at (6), not expired (4), and whose status list (65533) has 1, 2, 4 or 8 bits and a
 * list that decompresses within the cap. Failures are PresentationErrors (`malformed`,
 * `unsupported_algorithm`, `invalid_signature`); a status check turns any of them into
 * `status_unavailable`.
 */
export async function readStatusListCwt(
  token: Uint8Array,
  checks: StatusListCwtChecks,
): Promise<VerifiedStatusListCwt> {
  const tagged = decodeCborSafely(token, WHAT, {
    maxBytes: checks.maxBytes ?? 4 * 1024 * 1024,
    tags: new Set([COSE_SIGN1_TAG]),
  });
  check(
    tagged instanceof CborTag && tagged.tag === COSE_SIGN1_TAG,
    'malformed',
    `${WHAT} is not a COSE_Sign1_Tagged (tag 18)`,
  );
  const sign1 = readCoseSign1(tagged.value, WHAT, P256_ALGS);
  const typ = sign1.protectedHeaders.get(16);
  check(
    typ === STATUS_LIST_CWT_TYPE,
    'malformed',
    `the typ of ${WHAT} is ${String(typ)}, not ${STATUS_LIST_CWT_TYPE}`,
  );
  check(sign1.payload !== null, 'malformed', `${WHAT} has no payload`);
  const key =
    typeof checks.key === 'function'
      ? await checks.key({
          ...(sign1.x5chain ? { x5chain: sign1.x5chain } : {}),
          ...(sign1.kid ? { kid: sign1.kid } : {}),
        })
      : checks.key;
  check(
    coseSign1Verifies(sign1, sign1.payload, key),
    'invalid_signature',
    `the signature of ${WHAT} does not verify`,
  );

  const claims = mapOf(
    decodeCborSafely(sign1.payload, `the claims of ${WHAT}`, { tags: new Set() }),
    `the claims of ${WHAT}`,
  );
  const subject = textOf(field(claims, CWT_CLAIM.sub, WHAT), `the subject (2) of ${WHAT}`);
  check(subject === checks.uri, 'malformed', `the subject of ${WHAT} is ${subject}, not ${checks.uri}`);
  const issuedAt = uintOf(field(claims, CWT_CLAIM.iat, WHAT), `issued at (6) of ${WHAT}`);
  const exp = claims.has(CWT_CLAIM.exp)
    ? uintOf(claims.get(CWT_CLAIM.exp), `expiration (4) of ${WHAT}`)
    : undefined;
  check(
    exp === undefined || exp > checks.now - (checks.skewSeconds ?? 0),
    'malformed',
    `${WHAT} has expired`,
  );
  const ttl = claims.has(CWT_CLAIM.ttl)
    ? uintOf(claims.get(CWT_CLAIM.ttl), `time to live (65534) of ${WHAT}`)
    : undefined;
  check(ttl === undefined || ttl > 0, 'malformed', `the time to live of ${WHAT} is not positive`);
  const list = mapOf(field(claims, CWT_CLAIM.statusList, WHAT), `the status list (65533) of ${WHAT}`);
  const bits = field(list, 'bits', 'the status list');
  check(
    bits === 1 || bits === 2 || bits === 4 || bits === 8,
    'malformed',
    `bits ${String(bits)} is not 1, 2, 4 or 8`,
  );
  const lst = bytesOf(field(list, 'lst', 'the status list'), 'lst');
  let statuses: Uint8Array;
  try {
    statuses = new Uint8Array(
      inflateSync(lst, { maxOutputLength: checks.maxStatusBytes ?? 16 * 1024 * 1024 }),
    );
  } catch {
    return reject('malformed', `the lst of ${WHAT} does not decompress (ZLIB) within the size limit`);
  }
  return {
    bits,
    lst,
    statuses,
    issuedAt: new Date(issuedAt * 1000),
    ...(exp !== undefined ? { expiresAt: new Date(exp * 1000) } : {}),
    ...(ttl !== undefined ? { ttl } : {}),
    ...(sign1.x5chain ? { x5chain: sign1.x5chain } : {}),
    ...(sign1.kid ? { kid: sign1.kid } : {}),
  };
}
