import { inflateSync } from 'node:zlib';
import { base64url, compactVerify, importJWK, type JWK } from 'jose';
import { expectCredential, failCredential } from './errors.js';
import { type HttpOptions, send } from './http.js';
import { fetchJwtVcIssuerKeys, selectKey } from './issuer-keys.js';
import { decodeJwtPart } from './sd-jwt.js';

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

/**
 * Fetches and checks a Status List Token (JWT) and reads one status from it (Token Status List §8):
 * content type, `typ` statuslist+jwt, signature, `sub` equal to the uri, `iat`, `exp`; then inflate
 * `lst` and read the index. `keysFor(iss)` finds the keys; by default the token's own `iss` or else
 * the credential issuer's JWT VC Issuer Metadata, the "same web-based key resolution" of §11.3.
 */
export async function fetchCredentialStatus(
  ref: StatusReference,
  credentialIssuer: string,
  http: HttpOptions & { now?: number; keysFor?: (iss: string) => Promise<JWK[]> } = {},
): Promise<CredentialStatus> {
  const res = await send(ref.uri, { headers: { accept: 'application/statuslist+jwt' } }, 'status list', http);
  expectCredential(res.ok, 'status', `status list answered ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  expectCredential(
    /^application\/statuslist\+jwt\b/i.test(type),
    'status',
    `status list content type is ${type}`,
  );
  const jwt = (await res.text()).trim();
  const header = decodeJwtPart(jwt, 0);
  const payload = decodeJwtPart(jwt, 1);
  expectCredential(header.typ === 'statuslist+jwt', 'status', `status list typ is ${String(header.typ)}`);
  const iss = typeof payload.iss === 'string' ? payload.iss : credentialIssuer;
  const keys = await (http.keysFor ?? ((i: string) => fetchJwtVcIssuerKeys(i, http)))(iss);
  const where = http.keysFor ? `the status list keys of ${iss}` : `the JWT VC Issuer Metadata of ${iss}`;
  const key = await importJWK(selectKey(keys, header.kid, 'status', where), 'ES256');
  await compactVerify(jwt, key, { algorithms: ['ES256'] }).catch(() =>
    failCredential('status', 'the status list signature does not verify'),
  );
  const now = http.now ?? Math.floor(Date.now() / 1000);
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
  const value = readStatus(bytes, list.bits, ref.idx);
  return { value, label: STATUS_LABELS[value] ?? `0x${value.toString(16)}`, listIssuedAt: payload.iat };
}
