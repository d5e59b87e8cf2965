import { guardedFetch } from '../../outbound/guarded-fetch.js';
import type { OutboundPolicy } from '../../outbound/outbound-policy.js';

/** What the sign-in needs of an OpenID provider's discovery document (OpenID Connect Discovery 1.0). */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

// Providers change their endpoints rarely; holders sign in often. Kept per process for a while.
const TTL_MS = 10 * 60_000;
const cache = new Map<string, { metadata: ProviderMetadata; until: number }>();

export class ProviderUnavailable extends Error {}

const isUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\//.test(v);

/**
 * The provider's metadata, read through the guarded outbound fetch (no private addresses unless
 * OUTBOUND_ALLOW_PRIVATE allows them, no redirects, a size and time limit). Its `issuer` must be the
 * one configured (Discovery section 4.3), else an attacker's document could name other endpoints.
 */
export async function discoverProvider(policy: OutboundPolicy, issuer: string): Promise<ProviderMetadata> {
  const hit = cache.get(issuer);
  if (hit && hit.until > Date.now()) return hit.metadata;
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let doc: Record<string, unknown>;
  try {
    const res = await guardedFetch(policy, url, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`answered ${res.status}`);
    doc = res.json() as Record<string, unknown>;
  } catch (e) {
    throw new ProviderUnavailable(`discovery of ${issuer} failed: ${(e as Error).message}`);
  }
  if (doc.issuer !== issuer) throw new ProviderUnavailable(`discovery of ${issuer} names another issuer`);
  if (![doc.authorization_endpoint, doc.token_endpoint, doc.jwks_uri].every(isUrl))
    throw new ProviderUnavailable(`discovery of ${issuer} lacks an endpoint`);
  const metadata = doc as unknown as ProviderMetadata;
  cache.set(issuer, { metadata, until: Date.now() + TTL_MS });
  return metadata;
}
