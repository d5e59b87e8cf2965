import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { cached, invalidate } from '../cache/node-caches.js';
import type { Certificate } from '../keys/x509-certificate.js';
import { vouchesUntil } from './source-status.js';
import { type ListedCertificateRow, type Trust, type TrustPurpose, trustOf } from './trust.js';
import { TrustSourceRow } from './trust-source.entity.js';

export const WALLET_PROVIDER_TRUST = 'wallet-provider-trust';

/** What a wallet attestation or a key attestation is trusted for. */
export const WALLET_PROVIDER_PURPOSE: TrustPurpose = { serviceTypes: ['wallet_provider'] };

/**
 * The deployment's trust in wallet providers: the static WALLET_PROVIDER_TRUST_ANCHORS and every
 * trust source's `wallet_provider` entries while that source vouches, whichever tenant added it.
 *
 * Deployment-wide, not per tenant, by design: the issuer's authorization server is one per
 * deployment and checks a wallet attestation at PAR and at the token endpoint before any tenant is
 * known (a wallet-initiated PAR names none), just as the static anchors are one setting for all. So
 * a tenant that trusts a wallet provider list makes its providers trusted for every tenant's
 * wallets; other service types of the same sources stay the tenant's own (tenantTrust).
 *
 * Kept per node (`anchors` are the node's configuration, the same at every call) until a source
 * changes (tenantTrustChanged invalidates this topic too), and at most the cache's ttl, which also
 * bounds how late a copy passing its grace stops vouching.
 */
export const walletProviderTrust = (
  em: EntityManager,
  anchors: readonly Certificate[],
  graceSeconds: number,
): Promise<Trust> =>
  cached(em, WALLET_PROVIDER_TRUST, '*', async () =>
    Object.freeze({ anchors, listed: trustOf([], await listedWalletProviders(em, graceSeconds)).listed }),
  );

async function listedWalletProviders(em: EntityManager, graceSeconds: number) {
  const now = new Date();
  // Only the sources listing a wallet provider: a deployment's LOTLs list many entities of others.
  const listsWalletProviders = raw('listed @> cast(? as jsonb)', [
    JSON.stringify([{ serviceType: 'wallet_provider' }]),
  ]);
  const sources = await em.find(TrustSourceRow, { [listsWalletProviders]: [] }, { disableIdentityMap: true });
  return sources.flatMap((source): ListedCertificateRow[] => {
    if (vouchesUntil(source, graceSeconds) < now) return [];
    return (source.listed ?? [])
      .filter((entry) => entry.serviceType === 'wallet_provider')
      .flatMap((entry) =>
        entry.certificates.map((certificate) => ({
          certificate,
          source: source.id,
          entity: entry.entity,
          serviceType: entry.serviceType,
        })),
      );
  });
}

/** Whether any wallet provider can be trusted at all: a static anchor or a listed wallet provider. */
export const trustsWalletProviders = (trust: Trust) =>
  trust.anchors.length > 0 || trust.listed.some((l) => l.serviceType === 'wallet_provider');

/** Call in the transaction that changes any trust source (tenantTrustChanged does). */
export const walletProviderTrustChanged = (tx: EntityManager) => invalidate(tx, WALLET_PROVIDER_TRUST);
