import type { KeyObject } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { decode, encode, Tag } from './minimal-cbor.js';
import { es256, es256Verifies, sigStructure } from './minimal-mdoc.js';

/**
 * A Token Status List in CWT form with node:crypto alone, for the minimal mdoc pipeline: signed once
 * (COSE_Sign1_Tagged, typ application/statuslist+cwt, x5chain protected), and read by a verifier
 * once per ttl (signature, subject, expiry, the list inflated), as the service's cache reads it.
 */
const TYP = 'application/statuslist+cwt';
const CLAIM = { sub: 2, exp: 4, iat: 6, statusList: 65533, ttl: 65534 } as const;
const DAY_SECONDS = 86_400;

export function signStatusListCwt(
  key: KeyObject,
  x5chain: Uint8Array,
  uri: string,
  statuses: Uint8Array,
  ttl: number,
): Uint8Array {
  const now = Math.floor(Date.now() / 1000);
  const protectedBytes = encode(
    new Map<number, unknown>([
      [1, -7],
      [16, TYP],
      [33, x5chain],
    ]),
  );
  const payload = encode(
    new Map<number, unknown>([
      [CLAIM.sub, uri],
      [CLAIM.iat, now],
      [CLAIM.exp, now + DAY_SECONDS],
      [CLAIM.ttl, ttl],
      [CLAIM.statusList, { bits: 1, lst: deflateSync(statuses) }],
    ]),
  );
  const signature = es256(key, sigStructure(protectedBytes, payload));
  return encode(new Tag(18, [protectedBytes, new Map(), payload, signature]));
}

/** The statuses of a verified token, and until when (ms) it may be reused. */
function readStatusListCwt(
  token: Uint8Array,
  uri: string,
  trust: (x5chain: Uint8Array[]) => KeyObject | undefined,
) {
  const tagged = decode(token) as Tag;
  if (tagged.tag !== 18) throw new Error('not a COSE_Sign1_Tagged');
  const [protectedBytes, , payload, signature] = tagged.value as Uint8Array[];
  const headers = decode(protectedBytes as Uint8Array) as Map<number, unknown>;
  if (headers.get(1) !== -7 || headers.get(16) !== TYP) throw new Error('not an ES256 status list CWT');
  const key = trust([headers.get(33) as Uint8Array]);
  if (
    !key ||
    !es256Verifies(
      key,
      sigStructure(protectedBytes as Uint8Array, payload as Uint8Array),
      signature as Uint8Array,
    )
  )
    throw new Error('the status list token does not verify');
  const claims = decode(payload as Uint8Array) as Map<number, unknown>;
  const exp = claims.get(CLAIM.exp) as number;
  if (claims.get(CLAIM.sub) !== uri || exp * 1000 <= Date.now()) throw new Error('not this list, or expired');
  const list = claims.get(CLAIM.statusList) as Map<string, unknown>;
  if (list.get('bits') !== 1) throw new Error('not one bit per status');
  const statuses = inflateSync(list.get('lst') as Uint8Array);
  const until = Math.min(exp * 1000, Date.now() + (claims.get(CLAIM.ttl) as number) * 1000);
  return { statuses, until };
}

/** Whether entry `idx` of the list at `uri` is VALID, the token (re)read when its ttl has run out. */
export function cachedStatusList(
  fetchToken: (uri: string) => Uint8Array,
  trust: (x5chain: Uint8Array[]) => KeyObject | undefined,
) {
  let cached: { uri: string; statuses: Buffer; until: number } | undefined;
  return (ref: { idx: number; uri: string }): boolean => {
    if (!cached || cached.uri !== ref.uri || cached.until <= Date.now())
      cached = { uri: ref.uri, ...readStatusListCwt(fetchToken(ref.uri), ref.uri, trust) };
    return (((cached.statuses[ref.idx >> 3] ?? 0) >> (ref.idx & 7)) & 1) === 0;
  };
}
