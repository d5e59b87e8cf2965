import { inflateSync } from 'node:zlib';
import { base64url, compactVerify, importJWK, type JWK } from 'jose';
import { expectCredential, failCredential } from './errors.js';
import { type HttpOptions, send } from './http.js';
import { fetchJwtVcIssuerKeys, selectKey } from './issuer-keys.js';
import { decodeJwtPart } from './sd-jwt.js';
import { readStatusListCwt, STATUS_LIST_CWT_TYPE } from './status-list-cwt.js';

/** Status Type values (Token Status List §7.1); others are application specific. */
export const STATUS_LABELS: Record<number, string> = { 0: 'VALID', 1: 'INVALID', 2: 'SUSPENDED' };

export interface StatusReference {
  idx: number;
  uri: string;
}

export interface CredentialStatus {
  value: number;
  label: string;
  /** `iat` of the Status List Token the value was read from. */
  listIssuedAt: number;
}

/**
 * The status at `idx` of a byte array that packs `bits`-bit values least significant bit first
 * (Token Status List §4.1). Out of range is an error: no statement can be made then (§8.3).
 */
export function readStatus(list: Uint8Array, bits: number, idx: number): number {
  expectCredential([1, 2, 4, 8].includes(bits), 'status', `bits ${bits} is not 1, 2, 4 or 8`);
  const bitOffset = idx * bits;
  const byte = list[Math.floor(bitOffset / 8)];
  expectCredential(
    Number.isInteger(idx) && idx >= 0 && byte !== undefined,
    'status',
    `index ${idx} is out of range`,
  );
  return (byte >> (bitOffset % 8)) & ((1 << bits) - 1);
}

export interface StatusListOptions extends HttpOptions {
  /** Seconds since the epoch; now when absent. */
  now?: number;
  /** The keys of issuer `iss`; by default its JWT VC Issuer Metadata. */
  keysFor?: (iss: string) => Promise<JWK[]>;
  /**
   * Ask for the CWT form (`application/statuslist+cwt`), as for an mdoc; a JWT answer is read
   * too, since a service may publish only that form at the uri.
   */
  preferCwt?: boolean;
}

/**
 * Fetches a Status List Token and reads one status from it (Token Status List §8): the JWT form,
 * or with `preferCwt` the CWT form when the server answers it. `keysFor(iss)` finds the signing
 * keys: by default those of the token's own `iss` or else the credential issuer's JWT VC Issuer
 * Metadata, the "same web-based key resolution" of §11.3; the key is the one the token's kid names.
 */
export async function fetchCredentialStatus(
  ref: StatusReference,
  credentialIssuer: string,
  http: StatusListOptions = {},
): Promise<CredentialStatus> {
  const accept = http.preferCwt ? STATUS_LIST_CWT_TYPE : 'application/statuslist+jwt';
  const res = await send(ref.uri, { headers: { accept } }, 'status list', http);
  expectCredential(res.ok, 'status', `status list answered ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  const now = http.now ?? Math.floor(Date.now() / 1000);
  const keyFor = async (iss: string | undefined, kid: unknown) => {
    const issuer = iss ?? credentialIssuer;
    const keys = await (http.keysFor ?? ((i: string) => fetchJwtVcIssuerKeys(i, http)))(issuer);
    const where = http.keysFor
      ? `the status list keys of ${issuer}`
      : `the JWT VC Issuer Metadata of ${issuer}`;
    return selectKey(keys, kid, 'status', where);
  };
  if (http.preferCwt && /^application\/statuslist\+cwt\b/i.test(type)) {
    const list = await readStatusListCwt(new Uint8Array(await res.arrayBuffer()), {
      uri: ref.uri,
      now,
      keyFor,
    });
    return statusAt(list.statuses, list.bits, ref.idx, list.issuedAt);
  }
  expectCredential(
    /^application\/statuslist\+jwt\b/i.test(type),
    'status',
    `status list content type is ${type}`,
  );
  return readStatusListJwt((await res.text()).trim(), ref, now, keyFor);
}

const statusAt = (list: Uint8Array, bits: number, idx: number, listIssuedAt: number): CredentialStatus => {
  const value = readStatus(list, bits, idx);
  return { value, label: STATUS_LABELS[value] ?? `0x${value.toString(16)}`, listIssuedAt };
};

/** The JWT form (§5.1): `typ` statuslist+jwt, signature, `sub` equal to the uri, `iat`, `exp`, `lst`. */
async function readStatusListJwt(
  jwt: string,
  ref: StatusReference,
  now: number,
  keyFor: (iss: string | undefined, kid: unknown) => Promise<JWK>,
): Promise<CredentialStatus> {
  const header = decodeJwtPart(jwt, 0);
  const payload = decodeJwtPart(jwt, 1);
  expectCredential(header.typ === 'statuslist+jwt', 'status', `status list typ is ${String(header.typ)}`);
  const key = await importJWK(
    await keyFor(typeof payload.iss === 'string' ? payload.iss : undefined, header.kid),
    'ES256',
  );
  await compactVerify(jwt, key, { algorithms: ['ES256'] }).catch(() =>
    failCredential('status', 'the status list signature does not verify'),
  );
  expectCredential(
    payload.sub === ref.uri,
    'status',
    `status list sub ${String(payload.sub)} is not ${ref.uri}`,
  );
  expectCredential(typeof payload.iat === 'number', 'status', 'status list has no iat');
  expectCredential(
    payload.exp === undefined || (payload.exp as number) > now,
    'status',
    'status list has expired',
  );
  const list = payload.status_list as { bits?: unknown; lst?: unknown } | undefined;
  expectCredential(
    typeof list?.bits === 'number' && typeof list.lst === 'string',
    'status',
    'no status_list',
  );
  let bytes: Uint8Array;
  try {
    bytes = inflateSync(base64url.decode(list.lst));
  } catch {
    failCredential('status', 'lst is not base64url zlib data');
  }
  return statusAt(bytes, list.bits, ref.idx, payload.iat);
}
