import type { KeyObject, X509Certificate } from 'node:crypto';
import { WalletError } from './errors.js';
import { checkX5cChain, type X5cCheckOptions } from './x5c-chain.js';

export const X509_SAN_DNS_PREFIX = 'x509_san_dns:';

/**
 * Authenticates an `x509_san_dns:<dns name>` client (OID4VP §5.9.3): the name must be a dNSName SAN
 * of the `x5c` leaf (exactly: no wildcard, no fallback to the subject CN), and the chain must be
 * valid and end in one of `trustAnchors`. Without anchors the client is refused: anyone can make a
 * certificate naming any host, so only a trusted chain gives the name meaning. Returns the leaf's
 * public key, the one the request must be signed with.
 */
export function authenticateX509SanDnsClient(
  clientId: string,
  x5c: unknown,
  opts: X5cCheckOptions = {},
): { key: KeyObject; dnsName: string } {
  if (!clientId.startsWith(X509_SAN_DNS_PREFIX))
    throw new WalletError(`${clientId} is not an x509_san_dns client`);
  const dnsName = clientId.slice(X509_SAN_DNS_PREFIX.length);
  if (!dnsName) throw new WalletError('x509_san_dns: the client_id names no DNS name');
  if (!opts.trustAnchors?.length)
    throw new WalletError(
      'x509_san_dns: no trust anchors are configured, so the x5c chain cannot be trusted',
    );
  const leaf = checkX5cChain(x5c, opts, 'x509_san_dns')[0] as X509Certificate;
  if (leaf.checkHost(dnsName, { subject: 'never', wildcards: false }) === undefined)
    throw new WalletError(
      `x509_san_dns: ${dnsName} is not a DNS subject alternative name of the leaf certificate`,
    );
  return { key: leaf.publicKey, dnsName };
}

/**
 * Without a list of trusted client identifiers, the response must go to the host the certificate
 * names (OID4VP §5.9.3: the FQDN of the redirect URI, here `response_uri`, matches the client_id).
 */
export function checkResponseUriHost(responseUri: string, dnsName: string): void {
  if (new URL(responseUri).hostname !== dnsName)
    throw new WalletError(`x509_san_dns: response_uri ${responseUri} is not on ${dnsName}`);
}
