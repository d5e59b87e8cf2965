import { createECDH, createHash, createPrivateKey, hkdfSync, type KeyObject } from 'node:crypto';
import type { Config } from '../../config.js';
import { DEVELOPMENT_KEY_ENCRYPTION_KEY } from '../../keys/key-encryption.js';

/** The issuer's ECDH-ES key for encrypted credential requests (OID4VCI 1.0 section 10). */
export interface RequestDecryptionKey {
  privateKey: KeyObject;
  /** What `credential_request_encryption.jwks` lists; its kid is what a wallet's JWE names. */
  publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string; kid: string; use: 'enc'; alg: 'ECDH-ES' };
}

/** The order of the P-256 group: a private scalar must lie in [1, n - 1]. */
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

const made = new WeakMap<Config, RequestDecryptionKey>();

/**
 * Derived, like the DPoP nonce and pre-authorized code keys, from KEY_ENCRYPTION_KEY: every node
 * has the same key without storing or sharing anything, and it changes with that secret. The kid is
 * the key's own thumbprint, so that a wallet holding an older metadata document gets a clear error.
 */
export function requestDecryptionKey(config: Config): RequestDecryptionKey {
  let key = made.get(config);
  if (!key) {
    key = deriveKey(config.KEY_ENCRYPTION_KEY ?? DEVELOPMENT_KEY_ENCRYPTION_KEY);
    made.set(config, key);
  }
  return key;
}

function deriveKey(secret: string): RequestDecryptionKey {
  // A counter in the info picks the next candidate in the (2^-32 likely) case of a scalar out of range.
  for (let counter = 0; ; counter++) {
    const d = Buffer.from(
      hkdfSync('sha256', secret, 'credservice', `oid4vci/credential-request-encryption/${counter}`, 32),
    );
    const scalar = BigInt(`0x${d.toString('hex')}`);
    if (scalar === 0n || scalar >= P256_ORDER) continue;
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(d);
    const point = ecdh.getPublicKey();
    const x = point.subarray(1, 33).toString('base64url');
    const y = point.subarray(33, 65).toString('base64url');
    const privateKey = createPrivateKey({
      key: { kty: 'EC', crv: 'P-256', x, y, d: d.toString('base64url') },
      format: 'jwk',
    });
    // RFC 7638 thumbprint of the public key (members in lexicographic order).
    const thumbprint = createHash('sha256')
      .update(JSON.stringify({ crv: 'P-256', kty: 'EC', x, y }))
      .digest('base64url');
    return {
      privateKey,
      publicJwk: { kty: 'EC', crv: 'P-256', x, y, kid: thumbprint, use: 'enc', alg: 'ECDH-ES' },
    };
  }
}
