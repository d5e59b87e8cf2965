import { generateKeyPairSync } from 'node:crypto';
import type { KeyEncryption } from '../keys/key-encryption.js';

/** A session's own ECDH-ES key for an encrypted mode (.jwt): its private half sealed, its public JWK. */
export interface ResponseEncryptionKey {
  /** PKCS#8 DER, sealed under `encKid` (decrypt-response.ts opens it). */
  sealed: string;
  /** What client_metadata.jwks lists, and what the mdoc transcripts take the thumbprint of. */
  publicJwk: Record<string, string>;
}

/**
 * A fresh P-256 key the wallet encrypts its answer to (OID4VP 1.0 section 8.3, HAIP 1.0: ECDH-ES):
 * one per session, so a key that leaks opens one session's answer at most.
 */
export function createResponseEncryptionKey(sealing: KeyEncryption, encKid: string): ResponseEncryptionKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const sealed = sealing.seal(privateKey.export({ format: 'der', type: 'pkcs8' }), encKid);
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  const publicJwk = {
    kty: kty ?? 'EC',
    crv: crv ?? 'P-256',
    x: x ?? '',
    y: y ?? '',
    kid: encKid,
    use: 'enc',
    alg: 'ECDH-ES',
  };
  return { sealed, publicJwk };
}
