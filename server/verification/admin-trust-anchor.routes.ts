import { initServer } from '@ts-rest/express';
import { trustedIssuerContract } from '../../contract/admin/trusted-issuer-contract.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { notFound } from '../domain-errors.js';
import { adminActor } from '../http/admin-guard.js';
import { getTenant } from '../tenants/tenant-service.js';
import { TrustAnchor } from './trust-anchor.entity.js';
import {
  listTrustAnchors,
  trustAnchorFromPem,
  trustAnchorsChanged,
  trustAnchorView,
} from './trust-anchors.js';

const s = initServer();
const { listTrustAnchors: list, addTrustAnchor: add, deleteTrustAnchor: remove } = trustedIssuerContract;

/** Operators register the X.509 roots a tenant's verifier trusts issuers by; each change is audited. */
export const adminTrustAnchorRoutes = {
  listTrustAnchors: s.route(list, async ({ params, req }) => {
    await getTenant(req.em, params.id);
    return { status: 200, body: { items: (await listTrustAnchors(req.em, params.id)).map(trustAnchorView) } };
  }),
  addTrustAnchor: s.route(add, async ({ params, body, req }) => {
    await getTenant(req.em, params.id);
    const anchor = await trustAnchorFromPem(params.id, body.certificate);
    const added = await req.em.transactional(async (tx) => {
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
      await trustAnchorsChanged(tx, params.id);
      await appendAuditEvent(tx, {
        tenantId: params.id,
        actor: adminActor(req),
        action: 'verifier.trust_anchor_added',
        subject: anchor.sha256,
        details: { subject: anchor.subject, not_after: anchor.notAfter.toISOString() },
      });
      return true;
    });
    return { status: added ? 201 : 200, body: trustAnchorView(anchor) };
  }),
  deleteTrustAnchor: s.route(remove, async ({ params, req }) => {
    await getTenant(req.em, params.id);
    await req.em.transactional(async (tx) => {
      const deleted = await tx.nativeDelete(TrustAnchor, { tenantId: params.id, sha256: params.sha256 });
      if (deleted === 0) throw notFound(`trust anchor ${params.sha256}`);
      await trustAnchorsChanged(tx, params.id);
      await appendAuditEvent(tx, {
        tenantId: params.id,
        actor: adminActor(req),
        action: 'verifier.trust_anchor_removed',
        subject: params.sha256,
        details: {},
      });
    });
    return { status: 204, body: undefined };
  }),
};
