import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import type { ClientIdPrefix } from '../../contract/verification/authorization-request.js';
import type { Config } from '../config.js';
import type { TtlStore } from '../ephemeral/ttl-store.js';
import type { KeyEncryption } from '../keys/key-encryption.js';
import type { Signer } from '../keys/signer.js';
import { x509Hash } from '../keys/x509-hash.js';
import {
  cachedStatusListFetcher,
  type TrustedIssuerKeys,
  trustedIssuersFromMetadata,
} from '../oid4vp/verification/index.js';
import { guardedFetch } from '../outbound/guarded-fetch.js';
import { type OutboundPolicy, outboundPolicy } from '../outbound/outbound-policy.js';
import { EphemeralSessions } from './ephemeral-sessions.js';
import type { SessionEvents } from './session-events.js';
import { TrustedIssuer } from './trusted-issuer.entity.js';

/** What the verifier's domain functions are given at start. */
export interface VerifierServices {
  config: Config;
  signer: Signer;
  sealing: KeyEncryption;
  events: SessionEvents;
  /** Sessions of anonymous sign-ins, kept with a TTL until they lead somewhere. */
  ephemeral: EphemeralSessions;
  /** Status list tokens, fetched once per their ttl for the whole process. */
  fetchStatusList: (uri: string) => Promise<string>;
  /**
   * The issuers a tenant trusts by keys: this service's own issuer, plus the tenant's trusted issuers
   * (the tenant's X.509 trust anchors are the other way, see trust-anchors.ts).
   */
  trustedIssuers: (
    em: EntityManager,
    tenantId: string,
  ) => (iss: string) => Promise<TrustedIssuerKeys | undefined>;
  /**
   * The client identifier under `prefix` (default `x509_hash`) and the certificate chain (without
   * the trust anchor) the request objects carry.
   */
  identity(prefix?: ClientIdPrefix): Promise<{ clientId: string; x5c: string[] }>;
}

/** Outbound reads of the verifier go through the guarded fetch: no redirects, no private addresses. */
const fetchText = (policy: OutboundPolicy) => async (uri: string) => {
  const res = await guardedFetch(policy, uri, { headers: { accept: 'application/statuslist+jwt' } });
  if (!res.ok) throw new Error(`${uri} answered ${res.status}`);
  return res.text();
};

const fetchJson = (policy: OutboundPolicy) => async (url: string) => {
  const res = await guardedFetch(policy, url, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.json();
};

export function verifierServices(
  config: Config,
  signer: Signer,
  sealing: KeyEncryption,
  events: SessionEvents,
  ephemeral: TtlStore,
): VerifierServices {
  const policy = outboundPolicy(config);
  const resolvers = new Map<string, (iss: string) => Promise<JWK[] | undefined>>();
  return {
    config,
    signer,
    sealing,
    events,
    ephemeral: new EphemeralSessions(ephemeral),
    fetchStatusList: cachedStatusListFetcher(fetchText(policy)),
    trustedIssuers: (em, tenantId) => async (iss) => {
      if (iss === config.issuerUrl) {
        const own = [...(await signer.publicJwks('issuer')), ...(await signer.publicJwks('status-list'))];
        return { method: 'jwks', keys: own };
      }
      const trusted = await em.findOne(TrustedIssuer, { tenantId, issuer: iss });
      if (!trusted) return undefined;
      if (trusted.jwks) return { method: 'jwks', keys: trusted.jwks.keys as JWK[] };
      let resolve = resolvers.get(iss);
      if (!resolve) {
        resolve = trustedIssuersFromMetadata([iss], fetchJson(policy));
        resolvers.set(iss, resolve);
      }
      const keys = await resolve(iss);
      return keys && { method: 'jwt-vc-issuer-metadata', keys };
    },
    async identity(prefix = 'x509_hash') {
      const x5c = await signer.certificateChain('verifier');
      // x509_san_dns names the verifier host, a dNSName of the leaf (see server/keys/certificate-names).
      const clientId =
        prefix === 'x509_san_dns'
          ? `x509_san_dns:${new URL(config.verifierUrl).hostname}`
          : `x509_hash:${x509Hash(x5c[0] ?? '')}`;
      return { clientId, x5c };
    },
  };
}
