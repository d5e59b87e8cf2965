import {
  decodeStatusList,
  readStatus,
  type StatusBits,
  StatusType,
} from '../../status-list/status-list-encoding.js';
import { checkProfileAlg } from './check-haip-profile.js';
import type { IssuerTrust } from './issuer-trust.js';
import { decodeJws, isObject } from './jws.js';
import { check, PresentationError, reject } from './presentation-error.js';
import { isCachedStatusListFetcher } from './status-list-cache.js';
import { statusTrustKey, verifyStatusListSignature } from './status-list-signature.js';
import type { Checks } from './types.js';

/** `status.status_list` of a Referenced Token (Token Status List §6.2). */
export interface StatusReference {
  idx: number;
  uri: string;
}

/**
 * The status list entry of a credential, or undefined when it has no `status` claim (the credential
 * is then accepted without a status check). A `status` with another mechanism than `status_list`
 * cannot be checked here and is refused (`status_unavailable`).
 */
export function readStatusReference(payload: Record<string, unknown>): StatusReference | undefined {
  const status = payload.status;
  if (status === undefined) return undefined;
  check(isObject(status), 'malformed', 'status is not an object');
  const ref = status.status_list;
  check(
    ref !== undefined,
    'status_unavailable',
    'the credential uses a status mechanism other than status_list',
  );
  check(
    isObject(ref) && Number.isSafeInteger(ref.idx) && (ref.idx as number) >= 0 && typeof ref.uri === 'string',
    'malformed',
    'status.status_list needs a non-negative integer idx and a uri',
  );
  return { idx: ref.idx as number, uri: ref.uri };
}

/** A Status List Token whose signature and time-independent claims were checked, with `lst` decoded. */
interface VerifiedList {
  sub: unknown;
  exp: unknown;
  bits: StatusBits;
  bytes: Uint8Array;
  /** Seconds: when the certificates it was trusted by stop being valid. */
  trustedUntil: number | undefined;
}

/** Token Status List §8.3 steps 3-5 for what does not depend on the credential or the time. */
async function verifyListToken(
  token: string,
  issuer: string,
  trust: IssuerTrust,
  checks: Checks,
): Promise<VerifiedList> {
  const jws = decodeJws(typeof token === 'string' ? token.trim() : token, 'the status list token');
  check(
    jws.header.typ === 'statuslist+jwt',
    'malformed',
    `typ is ${String(jws.header.typ)}, not statuslist+jwt`,
  );
  checkProfileAlg(jws, checks, 'the status list token');
  const trustedUntil = await verifyStatusListSignature(jws, issuer, trust, checks);
  const { payload } = jws;
  check(
    payload.iss === undefined || payload.iss === issuer,
    'malformed',
    `signed for ${String(payload.iss)}`,
  );
  check(typeof payload.iat === 'number', 'malformed', 'it has no iat');
  const list = payload.status_list;
  check(isObject(list) && [1, 2, 4, 8].includes(list.bits as number), 'malformed', 'bad status_list bits');
  check(typeof list.lst === 'string', 'malformed', 'status_list has no lst');
  return {
    sub: payload.sub,
    exp: payload.exp,
    bits: list.bits as StatusBits,
    bytes: decodeStatusList(list.lst),
    trustedUntil,
  };
}

/**
 * Token Status List §8.3 steps 2-6: fetch, validate, decompress, read. Any failure throws. A cached
 * fetcher keeps the verified, decoded list for the token's ttl (per issuer, key set and trust
 * anchors, so a key or anchor no longer trusted is not honoured from the cache); the checks that
 * depend on the credential and the time (certificates expiring too) run on every use.
 */
async function readListEntry(ref: StatusReference, issuer: string, trust: IssuerTrust, checks: Checks) {
  const fetcher = checks.fetchStatusList;
  const verify = (token: string) => verifyListToken(token, issuer, trust, checks);
  const list = isCachedStatusListFetcher(fetcher)
    ? await fetcher.derived(ref.uri, statusTrustKey(issuer, trust, checks), verify, (l) => l.bytes.byteLength)
    : await verify(await fetcher(ref.uri));
  check(
    list.trustedUntil === undefined || list.trustedUntil >= checks.now - checks.skewSeconds,
    'certificate_expired',
    'a certificate it is trusted by has expired',
  );
  check(list.sub === ref.uri, 'malformed', `its sub ${String(list.sub)} is not ${ref.uri}`);
  check(
    list.exp === undefined || (typeof list.exp === 'number' && list.exp > checks.now - checks.skewSeconds),
    'malformed',
    'it has expired',
  );
  return readStatus(list.bytes, list.bits, ref.idx);
}

/**
 * A status read from a list, fail closed: `read` failing for any reason is `status_unavailable` (no
 * statement can be made); VALID passes, INVALID is `revoked`, SUSPENDED `suspended`, anything else
 * `status_unavailable`. Shared by every format's status check (JWT and CWT lists).
 */
export async function checkListedStatus(uri: string, read: () => Promise<number>): Promise<void> {
  let value: number;
  try {
    value = await read();
  } catch (e) {
    const reason = e instanceof PresentationError || e instanceof Error ? e.message : String(e);
    return reject('status_unavailable', `the status list ${uri} cannot be used: ${reason}`, e);
  }
  check(value !== StatusType.INVALID, 'revoked', 'the credential is revoked');
  check(value !== StatusType.SUSPENDED, 'suspended', 'the credential is suspended');
  check(
    value === StatusType.VALID,
    'status_unavailable',
    `the credential has status 0x${value.toString(16)}`,
  );
}

/**
 * The credential's status from its Status List Token, which must be signed for the credential's own
 * issuer: by an `x5c` chain to a trust anchor naming it, by the credential's certificate key, or by a
 * key of `trustedIssuers(iss)` (this service publishes its status-list keys in its jwt-vc-issuer
 * metadata); see verifyStatusListSignature. A token that carries an `iss` must name that same issuer.
 */
export const checkStatus = (ref: StatusReference, issuer: string, trust: IssuerTrust, checks: Checks) =>
  checkListedStatus(ref.uri, () => readListEntry(ref, issuer, trust, checks));
