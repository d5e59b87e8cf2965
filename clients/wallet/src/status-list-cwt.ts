import { createPublicKey, verify } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { cborDecode, Sign1 } from '@owf/mdoc';
import type { JWK } from 'jose';
import { expectCredential, failCredential } from './errors.js';

export const STATUS_LIST_CWT_TYPE = 'application/statuslist+cwt';

/** CWT claim keys of a Status List Token (RFC 8392; Token Status List, CWT format). */
const CLAIM = { iss: 1, sub: 2, exp: 4, iat: 6, statusList: 65533 } as const;
/** COSE header labels (RFC 9052): alg, kid, typ. */
const HEADER = { alg: 1, kid: 4, typ: 16 } as const;
/** ES256, and ESP256 (the same on P-256, fully specified). */
const P256_ALGS = [-7, -9];

export interface StatusListCwtChecks {
  /** The `uri` of the credential's status reference: the token's subject must be it. */
  uri: string;
  /** Seconds since the epoch. */
  now: number;
  /** The key that must have signed it, found from the token's issuer (or null) and kid. */
  keyFor: (iss: string | undefined, kid: string | undefined) => Promise<JWK>;
}

/** What a verified Status List Token in CWT form says. */
export interface StatusListCwtContent {
  bits: number;
  /** The decompressed byte array of statuses. */
  statuses: Uint8Array;
  /** Seconds since the epoch. */
  issuedAt: number;
}

/**
 * Reads a Status List Token in CWT form, the list an mdoc's status refers to (Token Status List
 * §5.2, validation §8.3): COSE_Sign1_Tagged, typ application/statuslist+cwt, ES256 over P-256,
 * signed by the key `keyFor` finds, subject equal to the credential's uri, issued at, not expired,
 * and a status list of 1, 2, 4 or 8 bits whose `lst` inflates. Failures are `status` checks.
 */
export async function readStatusListCwt(
  token: Uint8Array,
  checks: StatusListCwtChecks,
): Promise<StatusListCwtContent> {
  let sign1: unknown;
  try {
    sign1 = cborDecode(token);
  } catch {
    failCredential('status', 'the status list is not CBOR');
  }
  expectCredential(sign1 instanceof Sign1, 'status', 'the status list is not a COSE_Sign1_Tagged');
  const headers = sign1.protectedHeaders.headers;
  expectCredential(
    headers?.get(HEADER.typ) === STATUS_LIST_CWT_TYPE,
    'status',
    `status list typ is ${String(headers?.get(HEADER.typ))}`,
  );
  const alg = headers?.get(HEADER.alg);
  expectCredential(
    P256_ALGS.includes(alg as number),
    'status',
    `status list alg ${String(alg)} is not ES256`,
  );
  expectCredential(sign1.payload, 'status', 'the status list has no payload');
  const claims = cborDecode(sign1.payload) as unknown;
  expectCredential(claims instanceof Map, 'status', 'the status list claims are not a CBOR map');
  const iss = claims.get(CLAIM.iss);
  const kid = headers?.get(HEADER.kid) ?? sign1.unprotectedHeaders.headers?.get(HEADER.kid);
  const jwk = await checks.keyFor(
    typeof iss === 'string' ? iss : undefined,
    kid instanceof Uint8Array ? new TextDecoder().decode(kid) : undefined,
  );
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  expectCredential(
    verify('sha256', sign1.toBeSigned, { key, dsaEncoding: 'ieee-p1363' }, sign1.signature),
    'status',
    'the status list signature does not verify',
  );
  const sub = claims.get(CLAIM.sub);
  expectCredential(sub === checks.uri, 'status', `status list subject ${String(sub)} is not ${checks.uri}`);
  const issuedAt = claims.get(CLAIM.iat);
  expectCredential(typeof issuedAt === 'number', 'status', 'status list has no iat');
  const exp = claims.get(CLAIM.exp);
  expectCredential(exp === undefined || (exp as number) > checks.now, 'status', 'status list has expired');
  const list = claims.get(CLAIM.statusList) as Map<string, unknown> | undefined;
  const bits = list instanceof Map ? list.get('bits') : undefined;
  const lst = list instanceof Map ? list.get('lst') : undefined;
  expectCredential(typeof bits === 'number' && lst instanceof Uint8Array, 'status', 'no status_list');
  let statuses: Uint8Array;
  try {
    statuses = new Uint8Array(inflateSync(lst));
  } catch {
    failCredential('status', 'lst is not zlib data');
  }
  return { bits, statuses, issuedAt };
}
