import { readFileSync } from 'node:fs';
import { type Certificate, certificatesFromPem, parseCertificate } from '../../keys/x509-certificate.js';

/**
 * The wallet providers' root certificates from WALLET_PROVIDER_TRUST_ANCHORS (a PEM bundle), read
 * once at start: a missing file, a file without certificates or a certificate that does not parse
 * stops the start rather than quietly trusting nobody. Each must be a CA certificate.
 */
export function loadTrustAnchors(path: string | undefined): Certificate[] {
  if (!path) return [];
  const fail = (message: string) => new Error(`WALLET_PROVIDER_TRUST_ANCHORS: ${message}`);
  let blocks: string[];
  try {
    blocks = certificatesFromPem(readFileSync(path, 'utf8'));
  } catch (e) {
    throw fail(`cannot read ${path}: ${(e as Error).message}`);
  }
  if (!blocks.length) throw fail(`${path} holds no PEM certificate`);
  return blocks.map((der, i) => {
    let cert: Certificate;
    try {
      cert = parseCertificate(der, `certificate ${i} of ${path}`);
    } catch (e) {
      throw fail((e as Error).message);
    }
    if (cert.ca !== true) throw fail(`certificate ${i} (${cert.subject}) is not a CA`);
    return cert;
  });
}
