import { webcrypto } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };

const certificate = (base64: string) => new x509.X509Certificate(Buffer.from(base64, 'base64'));

export const decodeHeader = (jws: string) =>
  JSON.parse(Buffer.from(jws.split('.')[0] ?? '', 'base64url').toString()) as Record<string, unknown>;

export const decodePayload = (jws: string) =>
  JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

/**
 * Validates an `x5c` header the way a HAIP verifier does, with code independent of the service:
 * standard base64 DER, leaf first; the trust anchor itself not included; the leaf not self-signed;
 * every certificate within its validity; each signed by the next, the last by `rootBase64`. Throws
 * with the reason, returns the leaf.
 */
export async function validateX5c(x5c: unknown, rootBase64: string): Promise<x509.X509Certificate> {
  if (!Array.isArray(x5c) || x5c.length === 0) throw new Error('no x5c');
  const root = certificate(rootBase64);
  const chain = (x5c as string[]).map(certificate);
  if (chain.some((c) => c.equal(root))) throw new Error('x5c includes the trust anchor');
  const leaf = chain[0] as x509.X509Certificate;
  if (await leaf.isSelfSigned()) throw new Error('the leaf is self-signed');
  const now = new Date();
  for (const [i, cert] of chain.entries()) {
    if (cert.notBefore > now || cert.notAfter < now) throw new Error(`certificate ${i} is not valid now`);
    const issuer = chain[i + 1] ?? root;
    if (cert.issuer !== issuer.subject) throw new Error(`certificate ${i} names another issuer`);
    if (!(await cert.verify({ publicKey: issuer.publicKey, signatureOnly: true })))
      throw new Error(`certificate ${i} is not signed by its issuer`);
    if (i > 0 && !cert.getExtension(x509.BasicConstraintsExtension)?.ca)
      throw new Error(`certificate ${i} is no CA`);
  }
  return leaf;
}

/** The dNSName and URI subject alternative names of a certificate. */
export function sansOf(cert: x509.X509Certificate) {
  const names = cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON() ?? [];
  return {
    dns: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ip: names.filter((n) => n.type === 'ip').map((n) => n.value),
    uri: names.filter((n) => n.type === 'url').map((n) => n.value),
  };
}

/** Verifies an ES256 signature (base64url, r||s) over `data` with the certificate's key. */
export async function verifiesWith(cert: x509.X509Certificate, data: string, signature: string) {
  const key = await cert.publicKey.export({ name: 'ECDSA', namedCurve: 'P-256' }, ['verify']);
  return webcrypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    key as webcrypto.CryptoKey,
    Buffer.from(signature, 'base64url'),
    new TextEncoder().encode(data),
  );
}

/**
 * A JWS verifier for `@sd-jwt/sd-jwt-vc` that resolves the key only from the `x5c` header, chained
 * to `rootBase64` (SD-JWT VC section 3.5 inline X.509), and requires an `iss`, when present, to be a
 * URI or the host of a dNSName SAN of the leaf.
 */
export const x5cVerifier = (rootBase64: string) => async (data: string, signature: string) => {
  const [header, payload] = data.split('.');
  const leaf = await validateX5c(decodeHeader(`${header}.`).x5c, rootBase64);
  const iss = decodePayload(`${header}.${payload}`).iss;
  if (typeof iss === 'string') {
    const { dns, uri } = sansOf(leaf);
    if (!uri.includes(iss) && !dns.includes(new URL(iss).hostname))
      throw new Error(`iss ${iss} is not a subject alternative name of the leaf`);
  }
  return verifiesWith(leaf, data, signature);
};
