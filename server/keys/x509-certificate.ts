import { X509Certificate as NodeCertificate } from 'node:crypto';
// x509-support sets @peculiar/x509 up (Reflect metadata, Node's WebCrypto) once for every user.
import { x509 } from './x509-support.js';

/** Extensions whose meaning the chain check knows (RFC 5280 §4.2): a critical one of any other kind is refused. */
const UNDERSTOOD_EXTENSIONS = new Set([
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.15', // keyUsage
  '2.5.29.17', // subjectAltName
  '2.5.29.19', // basicConstraints
  '2.5.29.32', // certificatePolicies (no policy constraints are evaluated: any policy is accepted)
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.37', // extKeyUsage
]);

/** What the chain check reads of one certificate, parsed once. */
export interface Certificate {
  /** Standard base64 of the DER, as in `x5c`. */
  base64: string;
  /** SHA-256 of the DER, lowercase hex: how trust anchors are named. */
  sha256: string;
  subject: string;
  /** Node's view: signature verification, issuer matching, the public key. */
  node: NodeCertificate;
  notBefore: number;
  notAfter: number;
  /** basicConstraints; undefined when the extension is absent. */
  ca?: boolean;
  pathLength?: number;
  /** keyUsage flags (x509.KeyUsageFlags); undefined when the extension is absent (any use). */
  keyUsage?: number;
  /** authorityKeyIdentifier keyIdentifier, base64url (OID4VP 1.0 §6.1.1.1). */
  aki?: string;
  /** subjectKeyIdentifier, base64url. */
  ski?: string;
  dnsNames: string[];
  uris: string[];
  /** OIDs of critical extensions this check does not understand. */
  unknownCritical: string[];
}

const hexToBase64url = (hex: string | undefined) =>
  hex ? Buffer.from(hex, 'hex').toString('base64url') : undefined;

const STD_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Parses a DER certificate (bytes, or standard base64 as `x5c` carries it). Throws an Error naming `what`. */
export function parseCertificate(der: string | Uint8Array, what: string): Certificate {
  if (typeof der === 'string' && !STD_BASE64.test(der)) throw new Error(`${what} is not standard base64`);
  const bytes = typeof der === 'string' ? Buffer.from(der, 'base64') : Buffer.from(der);
  let cert: x509.X509Certificate;
  let node: NodeCertificate;
  try {
    cert = new x509.X509Certificate(bytes);
    node = new NodeCertificate(bytes);
  } catch {
    throw new Error(`${what} is not a DER X.509 certificate`);
  }
  const basic = cert.getExtension(x509.BasicConstraintsExtension);
  const names = cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON() ?? [];
  return {
    base64: bytes.toString('base64'),
    sha256: node.fingerprint256.replaceAll(':', '').toLowerCase(),
    subject: cert.subject,
    node,
    notBefore: Math.floor(cert.notBefore.getTime() / 1000),
    notAfter: Math.floor(cert.notAfter.getTime() / 1000),
    ...(basic ? { ca: basic.ca, pathLength: basic.pathLength } : {}),
    ...(cert.getExtension(x509.KeyUsagesExtension)
      ? { keyUsage: cert.getExtension(x509.KeyUsagesExtension)?.usages }
      : {}),
    aki: hexToBase64url(cert.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId),
    ski: hexToBase64url(cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value.toLowerCase()),
    uris: names.filter((n) => n.type === 'url').map((n) => n.value),
    unknownCritical: cert.extensions
      .filter((e) => e.critical && !UNDERSTOOD_EXTENSIONS.has(e.type))
      .map((e) => e.type),
  };
}

/**
 * The key identifier that certificates issued by `cert` carry as their authorityKeyIdentifier, base64url:
 * its subjectKeyIdentifier, or else the SHA-1 of its public key (RFC 5280 §4.2.1.2 method 1), which
 * is what CAs put there when the issuing certificate names none.
 */
export async function keyIdentifierOf(cert: Certificate): Promise<string> {
  if (cert.ski) return cert.ski;
  const parsed = new x509.X509Certificate(Buffer.from(cert.base64, 'base64'));
  const computed = await x509.SubjectKeyIdentifierExtension.create(parsed.publicKey);
  return hexToBase64url(computed.keyId) as string;
}

export const hasKeyUsage = (cert: Certificate, flag: x509.KeyUsageFlags) =>
  cert.keyUsage === undefined || (cert.keyUsage & flag) !== 0;

export const KeyUsage = x509.KeyUsageFlags;

/** Base64 DER certificates from PEM text (`-----BEGIN CERTIFICATE-----` blocks only). Throws an Error. */
export function certificatesFromPem(pem: string): string[] {
  const blocks = x509.PemConverter.decodeWithHeaders(pem);
  return blocks.map((b, i) => {
    if (b.type !== 'CERTIFICATE') throw new Error(`block ${i + 1} is a ${b.type}, not a CERTIFICATE`);
    return Buffer.from(b.rawData).toString('base64');
  });
}

/** A certificate in PEM, from the standard base64 DER an `x5c` entry or a stored anchor holds. */
export const pemOf = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`;
