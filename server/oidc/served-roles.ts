import type { Config } from '../config.js';

/**
 * The one authorization server at an origin: the credential issuer's (pre-authorized code grant),
 * the verifier's OpenID provider (authorization code grant), or, when both share one URL, a single
 * server doing both. `base` is its issuer identifier; every well-known document at that origin
 * describes exactly this server.
 */
export interface ServedRoles {
  base: string;
  issuer: boolean;
  verifier: boolean;
}

type Urls = Pick<Config, 'issuerUrl' | 'verifierUrl'>;

/**
 * One URL for both (the default) or two host names: anything else (the same host name with other
 * paths or ports) would put two servers' documents at one well-known location, so it is refused.
 */
export function assertServableLayout({ issuerUrl, verifierUrl }: Urls): void {
  if (issuerUrl === verifierUrl) return;
  if (new URL(issuerUrl).hostname === new URL(verifierUrl).hostname) {
    throw new Error(
      `ISSUER_URL (${issuerUrl}) and VERIFIER_URL (${verifierUrl}) must be the same URL or have different host names`,
    );
  }
}

/**
 * What this service is at the host name a request came to (Host, or X-Forwarded-Host from a
 * trusted proxy); undefined for a host that is neither the issuer's nor the verifier's.
 */
export function servedRoles({ issuerUrl, verifierUrl }: Urls, hostname: string): ServedRoles | undefined {
  if (issuerUrl === verifierUrl) return { base: issuerUrl, issuer: true, verifier: true };
  const host = hostname.toLowerCase();
  if (host === new URL(issuerUrl).hostname) return { base: issuerUrl, issuer: true, verifier: false };
  if (host === new URL(verifierUrl).hostname) return { base: verifierUrl, issuer: false, verifier: true };
  return undefined;
}

/**
 * RFC 9126 section 5: whether the server at an origin takes authorization requests only pushed. The
 * issuer's always (HAIP 1.0, FAPI 2.0). Where the issuer's server is also the OpenID provider (one
 * host name), its metadata is one document that must hold for every client, so relying parties push
 * theirs too; only the verifier alone on a host name of its own also takes plain requests.
 */
export const requiresPar = (at: ServedRoles): boolean => at.issuer;
