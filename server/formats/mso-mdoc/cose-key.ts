import type { KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { JwsError, p256PublicKey } from '../../keys/es256-jws.js';
import { check, reject } from '../../oid4vp/verification/presentation-error.js';
import type { CborValue } from './cbor-values.js';
import { bytesOf, field, mapOf } from './read-cbor.js';

/** COSE_Key labels and values (RFC 9052 section 7, RFC 9053 section 7.1) for EC2 keys on P-256. */
const KTY = 1;
const CRV = -1;
const X = -2;
const Y = -3;
const D = -4;
const KTY_EC2 = 2;
const CRV_P256 = 1;

const coordinate = (value: unknown, name: string) => {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'base64url') : undefined;
  if (bytes?.length !== 32) throw new TypeError(`the device key's ${name} is not a 32-byte P-256 coordinate`);
  return new Uint8Array(bytes);
};

/**
 * The COSE_Key of a public EC P-256 JWK, as the MSO's deviceKeyInfo and Annex C's EncryptionInfo
 * carry it: kty, crv, x, y and nothing else (no kid: COSE wants a byte string there, and the holder's
 * key needs no name). A private key (`d`), another curve or coordinates of the wrong size are refused
 * with a TypeError: the caller passed the wrong key. Whether the point is on the curve is not checked
 * here (a fifth of the cost of issuing): the key comes from a proof that verified with it.
 */
export function coseKeyFromJwk(jwk: JWK): Map<number, number | Uint8Array> {
  if (jwk.d !== undefined) throw new TypeError('the device key is a private key; pass its public part');
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw new TypeError('the device key is not an EC P-256 key');
  return new Map<number, number | Uint8Array>([
    [KTY, KTY_EC2],
    [CRV, CRV_P256],
    [X, coordinate(jwk.x, 'x')],
    [Y, coordinate(jwk.y, 'y')],
  ]);
}

/**
 * The public P-256 key a received COSE_Key holds, as a JWK and a KeyObject; `malformed` when it is
 * not an EC2 P-256 key with 32-byte coordinates on the curve, or when it carries a private part.
 */
export function publicKeyOfCoseKey(value: CborValue, what: string): { jwk: JWK; key: KeyObject } {
  const map = mapOf(value, what);
  check(field(map, KTY, what) === KTY_EC2, 'malformed', `${what} is not an EC2 key (kty 2)`);
  check(field(map, CRV, what) === CRV_P256, 'malformed', `${what} is not on P-256 (crv 1)`);
  check(!map.has(D), 'malformed', `${what} holds a private key`);
  const x = bytesOf(field(map, X, what), `x of ${what}`);
  const y = bytesOf(field(map, Y, what), `y of ${what}`);
  check(x.length === 32 && y.length === 32, 'malformed', `${what} has coordinates of the wrong length`);
  const jwk: JWK = {
    kty: 'EC',
    crv: 'P-256',
    x: Buffer.from(x).toString('base64url'),
    y: Buffer.from(y).toString('base64url'),
  };
  try {
    return { jwk, key: p256PublicKey(jwk as Record<string, unknown>) };
  } catch (e) {
    if (e instanceof JwsError) return reject('malformed', `${what} is not a point on P-256`);
    throw e;
  }
}
