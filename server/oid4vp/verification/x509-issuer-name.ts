import type { Certificate } from '../../keys/x509-certificate.js';
import { check } from './presentation-error.js';

/** The host of an `https:` issuer identifier, or of a DNS URI (RFC 4501 `dns:name`); else undefined. */
function dnsNameOf(iss: string): string | undefined {
  if (iss.startsWith('dns:'))
    return (
      iss
        .slice(4)
        .replace(/^\/\/[^/]*\//, '')
        .split('?')[0]
        ?.toLowerCase() || undefined
    );
  try {
    const url = new URL(iss);
    return url.protocol === 'https:' ? url.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the leaf certificate names the issuer `iss` (SD-JWT VC, inline X.509 certificates, in the
 * wording of draft 08 that HAIP 1.0 cites as "section 3.5"): a DNS name `iss` (an `https:` URL's
 * host, or a `dns:` URI) must be a dNSName subjectAltName of the leaf; any `iss` may also be a
 * uniformResourceIdentifier subjectAltName, exactly. No wildcards. Throws `certificate_name_mismatch`.
 * Matching the host admits every issuer path on that host: the certificate speaks for the host.
 */
export function checkIssuerName(iss: string, leaf: Certificate): void {
  const dns = dnsNameOf(iss);
  const named = leaf.uris.includes(iss) || (dns !== undefined && leaf.dnsNames.includes(dns));
  const has = [...leaf.dnsNames.map((n) => `DNS:${n}`), ...leaf.uris.map((u) => `URI:${u}`)];
  check(
    named,
    'certificate_name_mismatch',
    `iss ${iss} is not named by the leaf certificate ${leaf.subject} (subjectAltName: ${has.join(', ') || 'none'})`,
  );
}
