import type { StatusBits } from '../../status-list/status-list-encoding.js';
import { CborTag } from './cbor-values.js';
import { COSE_ALG, COSE_HEADER, sigStructure } from './cose-sign1.js';
import { encodeCbor } from './encode-cbor.js';

/** The CWT claim keys of a Status List Token (Token Status List, CWT format; RFC 8392). */
export const CWT_CLAIM = { sub: 2, exp: 4, iat: 6, statusList: 65533, ttl: 65534 } as const;

export const STATUS_LIST_CWT_TYPE = 'application/statuslist+cwt';

/** COSE_Sign1_Tagged (RFC 9052): a Status List Token in CWT form must carry the tag. */
export const COSE_SIGN1_TAG = 18;

/** Who signs the token: the key, and how a verifier finds it (as the JWT form's `x5c`, or `kid`). */
export interface StatusListCwtKey {
  /** ES256 over `data`: raw r||s, 64 bytes. */
  sign(data: Uint8Array): Promise<Uint8Array>;
  /** DER certificates, signer first, without the trust anchor: the `x5chain` header (HAIP). */
  x5chain?: readonly Uint8Array[];
  /** The key's id, written as the COSE kid: a byte string (its UTF-8), never text. */
  kid?: string;
}

export interface StatusListCwtClaims {
  /** The list's URI: the `uri` of every status reference into it. */
  subject: string;
  issuedAt: Date;
  expiresAt?: Date;
  /** Seconds a consumer may cache it. */
  ttl?: number;
  bits: StatusBits;
  /** The ZLIB/DEFLATE-compressed byte array (Token Status List "Compressed Byte Array"). */
  lst: Uint8Array;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * A Status List Token in CWT form (Token Status List, "Status List Token in CWT Format"):
 * COSE_Sign1_Tagged with protected {alg: ES256, typ: application/statuslist+cwt, x5chain} and
 * unprotected {kid}
 * over the claims {2: sub, 6: iat, 4: exp, 65534: ttl, 65533: {bits, lst}}. Not tagged as a CWT
 * (tag 61), which the format forbids. Served as `application/statuslist+cwt`.
 */
export async function signStatusListCwt(
  key: StatusListCwtKey,
  claims: StatusListCwtClaims,
): Promise<Uint8Array> {
  if (![1, 2, 4, 8].includes(claims.bits)) throw new RangeError(`bits ${claims.bits} is not 1, 2, 4 or 8`);
  if (claims.ttl !== undefined && !(Number.isSafeInteger(claims.ttl) && claims.ttl > 0))
    throw new RangeError('ttl must be a positive integer');
  const headers = new Map<number, unknown>([
    [COSE_HEADER.alg, COSE_ALG.ES256],
    [COSE_HEADER.typ, STATUS_LIST_CWT_TYPE],
  ]);
  // The chain is protected (bound to the signature, as the JWT form's x5c is); the kid is a hint and
  // sits unprotected, as in the specification's example, whose bytes this reproduces but for the signature.
  if (key.x5chain?.length)
    headers.set(COSE_HEADER.x5chain, key.x5chain.length === 1 ? key.x5chain[0] : [...key.x5chain]);
  const unprotected = new Map<number, Uint8Array>();
  if (key.kid !== undefined) unprotected.set(COSE_HEADER.kid, new TextEncoder().encode(key.kid));
  const protectedBytes = encodeCbor(headers);
  const payload = encodeCbor(
    new Map<number, unknown>([
      [CWT_CLAIM.sub, claims.subject],
      [CWT_CLAIM.iat, seconds(claims.issuedAt)],
      ...(claims.expiresAt ? [[CWT_CLAIM.exp, seconds(claims.expiresAt)] as const] : []),
      ...(claims.ttl !== undefined ? [[CWT_CLAIM.ttl, claims.ttl] as const] : []),
      [CWT_CLAIM.statusList, { bits: claims.bits, lst: claims.lst }],
    ]),
  );
  const signature = await key.sign(sigStructure(protectedBytes, payload));
  if (signature.length !== 64)
    throw new Error('the status list signer did not return a 64-byte ES256 signature');
  return encodeCbor(new CborTag(COSE_SIGN1_TAG, [protectedBytes, unprotected, payload, signature]));
}
