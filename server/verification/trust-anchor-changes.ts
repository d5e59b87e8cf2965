import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { getTenant } from '../tenants/tenant-service.js';
import { TrustAnchor } from './trust-anchor.entity.js';
import { trustAnchorFromPem, trustAnchorsChanged } from './trust-anchors.js';

/**
 * Adds a trust anchor to the tenant (the admin API and the tenant's own API both come here); false
 * when it was trusted already (nothing changes, nothing is audited).
 */
export async function addTrustAnchor(em: EntityManager, tenantId: string, pem: string, actor: string) {
  await getTenant(em, tenantId);
  const anchor = await trustAnchorFromPem(tenantId, pem);
  const added = await em.transactional(async (tx) => {
    const inserted = await tx.execute(
      `insert into trust_anchor (tenant_id, sha256, subject, key_identifier, certificate, not_before, not_after, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning sha256`,
      [
        anchor.tenantId,
        anchor.sha256,
        anchor.subject,
        anchor.keyIdentifier,
        anchor.certificate,
        anchor.notBefore,
        anchor.notAfter,
        anchor.createdAt,
      ],
    );
    if (inserted.length === 0) return false;
    await trustAnchorsChanged(tx, tenantId);
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'verifier.trust_anchor_added',
      subject: anchor.sha256,
      details: { subject: anchor.subject, not_after: anchor.notAfter.toISOString() },
    });
    return true;
  });
  return { anchor, added };
}

/** Stops trusting an anchor of the tenant; a 404 when it has no such anchor. */
export async function removeTrustAnchor(em: EntityManager, tenantId: string, sha256: string, actor: string) {
  await getTenant(em, tenantId);
  await em.transactional(async (tx) => {
    const deleted = await tx.nativeDelete(TrustAnchor, { tenantId, sha256 });
    if (deleted === 0) throw notFound(`trust anchor ${sha256}`);
    await trustAnchorsChanged(tx, tenantId);
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'verifier.trust_anchor_removed',
      subject: sha256,
      details: {},
    });
  });
}
