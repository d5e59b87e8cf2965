import type { EntityManager } from '@mikro-orm/postgresql';
import { cached, invalidate } from '../cache/node-caches.js';
import { listTrustAnchors } from '../verification/trust-anchors.js';
import { vouchesUntil } from './source-status.js';
import { type ListedCertificateRow, type Trust, trustOf } from './trust.js';
import { TrustSourceRow } from './trust-source.entity.js';
import { walletProviderTrustChanged } from './wallet-provider-trust.js';

const TENANT_TRUST = 'tenant-trust';

/**
 * The tenant's trust: its static anchors and the certificates its trust sources list while their
 * copy vouches. Every verification of the tenant reads it, so it is kept per node (parsed) until a
 * source or an anchor changes, and at most the cache's ttl, which also bounds how late a copy
 * passing its grace stops vouching.
 */
export const tenantTrust = (em: EntityManager, tenantId: string, graceSeconds: number): Promise<Trust> =>
  cached(em, TENANT_TRUST, tenantId, async () => {
    const anchors = (await listTrustAnchors(em, tenantId)).map((a) => a.certificate);
    return Object.freeze(trustOf(anchors, await listedCertificates(em, tenantId, graceSeconds)));
  });

async function listedCertificates(em: EntityManager, tenantId: string, graceSeconds: number) {
  const now = new Date();
  const sources = await em.find(TrustSourceRow, { tenantId }, { disableIdentityMap: true });
  return sources.flatMap((source): ListedCertificateRow[] => {
    if (vouchesUntil(source, graceSeconds) < now) return [];
    const restriction = {
      ...(source.vctValues ? { vct: source.vctValues } : {}),
      ...(source.doctypeValues ? { doctype: source.doctypeValues } : {}),
    };
    return (source.listed ?? []).flatMap((entry) =>
      entry.certificates.map((certificate) => ({
        certificate,
        source: source.id,
        entity: entry.entity,
        serviceType: entry.serviceType,
        ...restriction,
      })),
    );
  });
}

/**
 * Call in the transaction that changes a tenant's trust sources or anchors. A source's wallet
 * providers count for the whole deployment (walletProviderTrust), so that trust is dropped too, on
 * every node.
 */
export async function tenantTrustChanged(tx: EntityManager, tenantId: string) {
  await invalidate(tx, TENANT_TRUST, tenantId);
  await walletProviderTrustChanged(tx);
}
