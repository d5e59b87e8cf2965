import type { P256Jwk } from '../key-vault.js';

/** DER of the P-256 curve's OID (1.2.840.10045.3.1.7): CKA_EC_PARAMS of every key we make. */
export const P256_EC_PARAMS = Buffer.from('06082a8648ce3d030107', 'hex');

/**
 * The public JWK of a token's CKA_EC_POINT: a DER OCTET STRING (PKCS#11 2.40) around the
 * uncompressed point 04||x||y; some modules give the bare point, which is taken too.
 */
export function jwkOfEcPoint(value: Buffer): P256Jwk {
  const point = value.length === 67 && value[0] === 0x04 && value[1] === 0x41 ? value.subarray(2) : value;
  if (point.length !== 65 || point[0] !== 0x04)
    throw new Error('CKA_EC_POINT is not an uncompressed P-256 point');
  return {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33).toString('base64url'),
  };
}
