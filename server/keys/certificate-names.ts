import { isIP } from 'node:net';
import type { KeyPurpose } from './signing-key.entity.js';

/** The service's public addresses, from which each key's certificate gets its names. */
export interface ServiceNames {
  /** ISSUER_URL: the credential issuer identifier, the `iss` of every SD-JWT VC. */
  issuerUrl: string;
  /** VERIFIER_URL: where wallets fetch request objects and post responses. */
  verifierUrl: string;
  /** ISSUER_NAME, as the organisation of the certificates' subjects. */
  organization: string;
}

/** What a key's certificate (or its certificate signing request) names. */
export interface CertificateNames {
  /** RFC 4514 distinguished name, e.g. `CN=issuer.example, O=ACME`. */
  subject: string;
  dnsNames: string[];
  /** iPAddress SANs: a host that is an IP literal is named here, never as a dNSName. */
  ipAddresses: string[];
  uris: string[];
  /** Extended key usages (OIDs) the certificate must carry, e.g. the mdoc Document Signer's. */
  extendedKeyUsages?: string[];
}

/** ISO 18013-5 Annex B.1.4: id-mdl-kp-mdlDS, the extended key usage of a Document Signer certificate. */
export const MDL_DOCUMENT_SIGNER_EKU = '1.0.18013.5.1.2';

/** Keys named after the credential issuer: what it signs is checked against `iss` or the issuer's CA. */
export const issuerNamed = (purpose: KeyPurpose) =>
  purpose === 'issuer' || purpose === 'status-list' || purpose === 'document-signer';

export const DEFAULT_SERVICE_NAMES: ServiceNames = {
  issuerUrl: 'http://localhost:3000',
  verifierUrl: 'http://localhost:3000',
  organization: 'Credential Service',
};

/** Escapes a value for an RFC 4514 name (the characters that would end or split an attribute). */
const rdnValue = (v: string) =>
  v.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`).replace(/^[ #]|[ ]$/g, (c) => `\\${c}`);

/** An IP address as RFC 5952 writes it (IPv6 compressed, lower case), to compare two spellings. */
const canonicalIp = (ip: string) => (isIP(ip) === 6 ? new URL(`http://[${ip}]`).hostname.slice(1, -1) : ip);

/**
 * A URL's host as a certificate names it. RFC 5280 section 4.2.1.6 puts an IP address in an
 * iPAddress SAN, never in a dNSName (which holds only DNS names), so `http://127.0.0.1:3000` and
 * `http://[::1]:3000` give iPAddress SANs, `https://verifier.example` a dNSName.
 */
export function hostNames(url: string): Pick<CertificateNames, 'dnsNames' | 'ipAddresses'> {
  const host = new URL(url).hostname;
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return isIP(bare)
    ? { dnsNames: [], ipAddresses: [canonicalIp(bare)] }
    : { dnsNames: [bare], ipAddresses: [] };
}

/**
 * The issuer's keys (credentials and status lists) are named after the credential issuer: its host
 * (dNSName, or iPAddress for an IP literal) and its identifier as URI, so that a verifier can match
 * the SD-JWT VC's `iss` against the leaf certificate whichever SAN type its policy reads (HAIP,
 * SD-JWT VC section 3.5). The verifier's keys carry the verifier host as dNSName, which the
 * `x509_san_dns` client identifier prefix requires (OID4VP section 5.9.3); a verifier at an IP
 * address has an iPAddress SAN instead and no x509_san_dns identity (x509_hash names any leaf).
 * The other purposes are named after the verifier too.
 */
export function certificateNamesFor(purpose: KeyPurpose, names: ServiceNames): CertificateNames {
  const url = issuerNamed(purpose) ? names.issuerUrl : names.verifierUrl;
  const host = hostNames(url);
  return {
    subject: `CN=${rdnValue(host.dnsNames[0] ?? host.ipAddresses[0] ?? '')}, O=${rdnValue(names.organization)}`,
    ...host,
    uris: [url],
    ...(purpose === 'document-signer' ? { extendedKeyUsages: [MDL_DOCUMENT_SIGNER_EKU] } : {}),
  };
}

const sameSet = (a: string[], b: string[]) => [...a].sort().join('\n') === [...b].sort().join('\n');

/** Whether a certificate's names are the expected ones (compared as sets, order ignored). */
export const sameNames = (a: { dns: string[]; ip: string[]; uri: string[] }, b: CertificateNames) =>
  sameSet(a.dns, b.dnsNames) && sameSet(a.ip.map(canonicalIp), b.ipAddresses) && sameSet(a.uri, b.uris);

/** Whether `ip` (as a certificate holds it) is the address `expected`, however either is written. */
export const sameIp = (ip: string, expected: string) => canonicalIp(ip) === canonicalIp(expected);
