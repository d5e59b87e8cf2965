import type { JWK } from 'jose';
import type { Config } from '../config.js';
import type { TtlStore } from '../ephemeral/ttl-store.js';
import { cwtTtlSeconds } from '../formats/mso-mdoc/cwt-ttl.js';
import type { KeyEncryption } from '../keys/key-encryption.js';
import type { Signer } from '../keys/signer.js';
import { x509Hash } from '../keys/x509-hash.js';
import { guardedFetch } from '../outbound/guarded-fetch.js';
import { type OutboundPolicy, outboundPolicy } from '../outbound/outbound-policy.js';
import type { Sql } from '../persistence/sql.js';
import type { TrustServices } from '../trust/trust-services.js';
import { EphemeralSessions } from '../verification/ephemeral-sessions.js';
import type { SessionEvents } from '../verification/session-events.js';
import { TrustedIssuer } from '../verification/trusted-issuer.entity.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { cachedStatusListFetcher, trustedIssuersFromMetadata } from './verification/index.js';

/*
 * The verifier's services, assembled at start: the domain's VerifierServices filled in with the
 * OID4VP parts (status lists fetched and cached, issuer metadata resolved) and the outbound guard.
 */

/** Outbound reads of the verifier go through the guarded fetch: no redirects, no private addresses. */
const fetchText = (policy: OutboundPolicy) => async (uri: string) => {
  const res = await guardedFetch(policy, uri, { headers: { accept: 'application/statuslist+jwt' } });
  if (!res.ok) throw new Error(`${uri} answered ${res.status}`);
  return res.text();
};

/** A CWT Status List Token (an mdoc's status), base64url so that it caches as the JWT form does. */
const fetchCwt = (policy: OutboundPolicy) => async (uri: string) => {
  const res = await guardedFetch(policy, uri, { headers: { accept: 'application/statuslist+cwt' } });
  if (!res.ok) throw new Error(`${uri} answered ${res.status}`);
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/statuslist+cwt')) throw new Error(`${uri} answered ${type}, not a CWT`);
  return res.bytes().toString('base64url');
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
  sql: Sql,
  trust: TrustServices,
): VerifierServices {
  const policy = outboundPolicy(config);
  const resolvers = new Map<string, (iss: string) => Promise<JWK[] | undefined>>();
  const issuerMetadataKeys = async (iss: string): Promise<JWK[]> => {
    let resolve = resolvers.get(iss);
    if (!resolve) {
      resolve = trustedIssuersFromMetadata([iss], fetchJson(policy));
      resolvers.set(iss, resolve);
    }
    try {
      const keys = await resolve(iss);
      if (!keys?.length) throw new Error('its JWK set has no keys');
      return keys;
    } catch (e) {
      throw new Error(`its jwt-vc-issuer metadata cannot be used: ${(e as Error).message}`);
    }
  };
  return {
    config,
    signer,
    sealing,
    events,
    sql,
    trust,
    ephemeral: new EphemeralSessions(ephemeral),
    fetchStatusList: cachedStatusListFetcher(fetchText(policy)),
    fetchStatusListCwt: cachedStatusListFetcher(fetchCwt(policy), { ttlFromToken: cwtTtlSeconds }),
    issuerMetadataKeys,
    trustedIssuers: (em, tenantId) => async (iss) => {
      if (iss === config.issuerUrl) {
        const own = [...(await signer.publicJwks('issuer')), ...(await signer.publicJwks('status-list'))];
        return { method: 'jwks', keys: own };
      }
      const trusted = await em.findOne(TrustedIssuer, { tenantId, issuer: iss });
      if (!trusted) return undefined;
      if (trusted.jwks) return { method: 'jwks', keys: trusted.jwks.keys as JWK[] };
      // What became of the lookup is kept with the issuer, for the tenant's warnings; a row is
      // written only when that changes.
      const note = async (keysError: string | null) => {
        if (trusted.keysError === keysError) return;
        await em.nativeUpdate(
          TrustedIssuer,
          { tenantId, issuer: iss },
          { keysError, keysCheckedAt: new Date() },
        );
      };
      try {
        const keys = await issuerMetadataKeys(iss);
        await note(null);
        return { method: 'jwt-vc-issuer-metadata', keys };
      } catch (e) {
        await note((e as Error).message);
        throw e;
      }
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
