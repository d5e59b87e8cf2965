import { createPublicKey, type KeyObject, webcrypto } from 'node:crypto';
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };

/** ECDSA P-256 with SHA-256: the only algorithm our keys and certificates use (HAIP: ES256). */
export const ES256_CERTIFICATE = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

export const verifyingKeyOf = (publicKey: KeyObject) => publicKey.toCryptoKey(P256, true, ['verify']);

export const publicKeyOfJwk = (jwk: Record<string, string>) =>
  createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });

/** `x5c` entries are standard base64 of the DER (RFC 7515 section 4.1.6), not base64url. */
export const base64Der = (cert: x509.X509Certificate) => Buffer.from(cert.rawData).toString('base64');

export const certificateOf = (base64: string) => new x509.X509Certificate(Buffer.from(base64, 'base64'));

/** The SubjectPublicKeyInfo of a certificate, for comparing it with a key of ours. */
export const spkiOf = (cert: x509.X509Certificate) => Buffer.from(cert.publicKey.rawData);

/** The names in a certificate's Subject Alternative Name extension, by type. */
export function subjectAltNames(cert: x509.X509Certificate): { dns: string[]; ip: string[]; uri: string[] } {
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const names = san?.names.toJSON() ?? [];
  return {
    dns: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ip: names.filter((n) => n.type === 'ip').map((n) => n.value),
    uri: names.filter((n) => n.type === 'url').map((n) => n.value),
  };
}
