import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { CompactSign, type JWK } from 'jose';
import type { DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import { issueSdJwtVc } from '../../server/formats/sd-jwt-vc/issue-sd-jwt-vc.js';
import type { Signer } from '../../server/keys/signer.js';
import type { VerificationContext } from '../../server/oid4vp/verification/index.js';
import { StatusType, statusByteLength, writeStatus } from '../../server/status-list/status-list-encoding.js';
import { buildStatusListToken } from '../../server/status-list/status-list-token.js';

/**
 * Shared by the oid4vp-*.test.ts files: an issuer with in-memory keys (credential and status list),
 * a holder, presentations with KB-JWTs, and status lists served from memory. Everything is made here
 * with the service's own issuance code, so the verifier is tested against what the service issues.
 */

export const NOW = new Date('2026-03-02T10:00:00Z');
export const nowSeconds = Math.floor(NOW.getTime() / 1000);
export const ISSUER = 'https://issuer.example';
export const VCT = 'https://issuer.example/credentials/employee';
export const CLIENT_ID = 'x509_san_dns:verifier.example';
export const NONCE = 'n-0S6_WzA2Mj';
export const LIST_URI = `${ISSUER}/status-lists/00000000-0000-4000-8000-000000000001`;

export interface KeyPair {
  privateKey: KeyObject;
  publicJwk: JWK;
}

export function keyPair(kid?: string): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as JWK;
  return { privateKey, publicJwk: kid ? { ...jwk, kid, alg: 'ES256' } : jwk };
}

export const issuerKey = keyPair('issuer-1');
export const statusKey = keyPair('status-1');
export const holder = keyPair();

/** An in-memory Signer: the `issuer` and `status-list` purposes each with one key. */
export function memorySigner(
  keys: { issuer: KeyPair; status: KeyPair } = { issuer: issuerKey, status: statusKey },
) {
  const of = (purpose: string) => (purpose === 'status-list' ? keys.status : keys.issuer);
  const signer: Signer = {
    signJwt: async (purpose, header, payload) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ ...header, alg: 'ES256', kid: of(purpose).publicJwk.kid as string })
        .sign(of(purpose).privateKey),
    sign: async (purpose, data) => ({
      kid: of(purpose).publicJwk.kid as string,
      signature: sign('sha256', data, { key: of(purpose).privateKey, dsaEncoding: 'ieee-p1363' }),
    }),
    activeKid: async (purpose) => of(purpose).publicJwk.kid as string,
    publicJwks: async (purpose) => [of(purpose).publicJwk],
    certificateChain: async () => [],
  };
  return signer;
}

export const signer = memorySigner();

export const EMPLOYEE = {
  given_name: 'Ana',
  family_name: 'Ruiz',
  email: 'ana@acme.test',
  address: { street: 'Calle Mayor 1', locality: 'Madrid', country: 'ES' },
  roles: ['admin', 'dev'],
  department: 'R&D',
};

export interface IssueOptions {
  issuer?: string;
  vct?: string;
  claims?: Record<string, unknown>;
  disclosable?: string[];
  issuedAt?: Date;
  expiresAt?: Date;
  idx?: number;
  holderJwk?: JWK | null;
  signer?: Signer;
}

/** An SD-JWT VC as the service issues it (issueSdJwtVc), bound to `holder` unless told otherwise. */
export function issue(opts: IssueOptions = {}): Promise<string> {
  return issueSdJwtVc(opts.signer ?? signer, {
    issuer: opts.issuer ?? ISSUER,
    vct: opts.vct ?? VCT,
    claims: opts.claims ?? EMPLOYEE,
    selectivelyDisclosable: opts.disclosable ?? [
      'given_name',
      'family_name',
      'email',
      'address.street',
      'roles[]',
    ],
    issuedAt: opts.issuedAt ?? new Date(NOW.getTime() - 86_400_000),
    expiresAt: opts.expiresAt ?? new Date(NOW.getTime() + 365 * 86_400_000),
    status: { idx: opts.idx ?? 7, uri: LIST_URI },
    holderJwk: opts.holderJwk === null ? undefined : (opts.holderJwk ?? holder.publicJwk),
  });
}

export const signJwt = (header: Record<string, unknown>, payload: unknown, key: KeyObject) =>
  new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', ...header })
    .sign(key);

export const sha256 = (s: string) => createHash('sha256').update(s, 'ascii').digest('base64url');

export interface Disclosure {
  encoded: string;
  name?: string;
  value: unknown;
}

export function decodeDisclosure(encoded: string): Disclosure {
  const arr = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as unknown[];
  return arr.length === 3 ? { encoded, name: arr[1] as string, value: arr[2] } : { encoded, value: arr[1] };
}

export const encodeDisclosure = (arr: unknown[]) => Buffer.from(JSON.stringify(arr)).toString('base64url');

export interface KbOptions {
  nonce?: unknown;
  aud?: unknown;
  iat?: unknown;
  sdHash?: string;
  key?: KeyObject;
  typ?: string;
  extra?: Record<string, unknown>;
}

/** `<issuer JWT>~<chosen disclosures>~`: the part a KB-JWT's sd_hash covers. */
export function selectDisclosures(credential: string, keep: (d: Disclosure) => boolean): string {
  const [jwt, ...rest] = credential.split('~');
  const chosen = rest.filter(Boolean).map(decodeDisclosure).filter(keep);
  return `${[jwt, ...chosen.map((d) => d.encoded)].join('~')}~`;
}

export async function kbJwt(sdJwt: string, opts: KbOptions = {}): Promise<string> {
  const payload = {
    nonce: 'nonce' in opts ? opts.nonce : NONCE,
    aud: 'aud' in opts ? opts.aud : CLIENT_ID,
    iat: 'iat' in opts ? opts.iat : nowSeconds - 5,
    sd_hash: opts.sdHash ?? sha256(sdJwt),
    ...opts.extra,
  };
  return signJwt({ typ: opts.typ ?? 'kb+jwt' }, payload, opts.key ?? holder.privateKey);
}

/** Disclosure selectors: by claim name, every array element, or all. */
export const named =
  (...names: string[]) =>
  (d: Disclosure) =>
    d.name !== undefined && names.includes(d.name);
export const all = () => true;

/** An SD-JWT+KB presentation of `credential` with the disclosures `keep` selects. */
export async function present(
  credential: string,
  keep: (d: Disclosure) => boolean = all,
  kb: KbOptions = {},
): Promise<string> {
  const sdJwt = selectDisclosures(credential, keep);
  return sdJwt + (await kbJwt(sdJwt, kb));
}

export const decodeJson = (part: string | undefined) =>
  JSON.parse(Buffer.from(part ?? '', 'base64url').toString()) as Record<string, unknown>;

/** Re-signs the issuer JWT of an SD-JWT after `edit` changed its header or payload. */
export async function resign(
  credential: string,
  edit: (header: Record<string, unknown>, payload: Record<string, unknown>) => void,
  key: KeyObject = issuerKey.privateKey,
): Promise<string> {
  const [jwt, ...rest] = credential.split('~');
  const [h, p] = (jwt ?? '').split('.');
  const header = decodeJson(h);
  const payload = decodeJson(p);
  edit(header, payload);
  return [await signJwt(header, payload, key), ...rest].join('~');
}

/** Status lists served from memory: set an entry, and fetch tokens the service's way. */
export function statusLists(listSigner: Signer = signer) {
  const lists = new Map<string, Uint8Array>([[LIST_URI, new Uint8Array(statusByteLength(1024, 2))]]);
  const fetched: string[] = [];
  return {
    fetched,
    set(idx: number, status: number, uri = LIST_URI) {
      const bytes = lists.get(uri) ?? new Uint8Array(statusByteLength(1024, 2));
      writeStatus(bytes, 2, idx, status);
      lists.set(uri, bytes);
    },
    revoke: (idx: number) => writeStatus(lists.get(LIST_URI) as Uint8Array, 2, idx, StatusType.INVALID),
    fetch: async (uri: string) => {
      fetched.push(uri);
      const statuses = lists.get(uri);
      if (!statuses) throw new Error(`404 ${uri}`);
      return (await buildStatusListToken(listSigner, { uri, bits: 2, statuses }, NOW)).token;
    },
  };
}

/** A trusted issuer's keys as its jwt-vc-issuer metadata publishes them: credential and status-list keys. */
export const trustedIssuers = async (iss: string) =>
  iss === ISSUER ? [issuerKey.publicJwk, statusKey.publicJwk] : undefined;

export function context(overrides: Partial<VerificationContext> = {}): VerificationContext {
  return {
    nonce: NONCE,
    clientId: CLIENT_ID,
    now: NOW,
    trustedIssuers,
    fetchStatusList: statusLists().fetch,
    ...overrides,
  };
}

export const employeeQuery = (
  claims: (string | number | null)[][] = [['email']],
  id = 'employee',
): DcqlQuery => ({
  credentials: [
    {
      id,
      format: 'dc+sd-jwt',
      meta: { vct_values: [VCT] },
      ...(claims.length ? { claims: claims.map((path) => ({ path })) } : {}),
    },
  ],
});

/** The did:jwk of a public key. */
export const didJwk = (jwk: JWK) => `did:jwk:${Buffer.from(JSON.stringify(jwk)).toString('base64url')}`;
