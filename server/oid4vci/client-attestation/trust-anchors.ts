import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The wallet providers' root certificates from WALLET_PROVIDER_TRUST_ANCHORS (a PEM bundle), read
 * once at start: a missing file, a file without certificates or a certificate that does not parse
 * stops the start rather than quietly trusting nobody. Each must be a CA certificate.
 */
export function loadTrustAnchors(path: string | undefined): X509Certificate[] {
  if (!path) return [];
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`WALLET_PROVIDER_TRUST_ANCHORS: cannot read ${path}: ${(e as Error).message}`);
  }
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (!blocks.length) throw new Error(`WALLET_PROVIDER_TRUST_ANCHORS: ${path} holds no PEM certificate`);
  return blocks.map((block, i) => {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(block);
    } catch (e) {
      throw new Error(`WALLET_PROVIDER_TRUST_ANCHORS: certificate ${i} of ${path}: ${(e as Error).message}`);
    }
    if (!cert.ca)
      throw new Error(`WALLET_PROVIDER_TRUST_ANCHORS: certificate ${i} (${cert.subject}) is not a CA`);
    return cert;
  });
}
