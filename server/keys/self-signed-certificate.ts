import { createHash, type KeyObject, webcrypto } from 'node:crypto';
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/**
 * A self-signed X.509 certificate for a signing key, so the verifier can identify itself with the
 * `x509_hash` client identifier prefix of OID4VP (the hash of this certificate) and send it in `x5c`.
 * Good for development and closed deployments; a CA-issued certificate can replace it.
 */
export async function selfSignedCertificate(
  privateKey: KeyObject,
  publicKey: KeyObject,
  commonName: string,
): Promise<string> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = {
    privateKey: await webcrypto.subtle.importKey(
      'pkcs8',
      privateKey.export({ format: 'der', type: 'pkcs8' }),
      algorithm,
      false,
      ['sign'],
    ),
    publicKey: await webcrypto.subtle.importKey(
      'spki',
      publicKey.export({ format: 'der', type: 'spki' }),
      algorithm,
      true,
      ['verify'],
    ),
  };
  const now = new Date();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: createHash('sha256')
      .update(commonName + now.toISOString())
      .digest('hex')
      .slice(0, 16),
    name: `CN=${commonName.replaceAll(',', ' ')}`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + 3 * 365 * 86_400_000),
    signingAlgorithm: algorithm,
    keys: keys as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'],
  });
  return Buffer.from(cert.rawData).toString('base64');
}

/** `x509_hash` client identifier: base64url SHA-256 of the DER certificate (OID4VP section 5.9.3). */
export const x509Hash = (certificateBase64: string) =>
  createHash('sha256').update(Buffer.from(certificateBase64, 'base64')).digest('base64url');
