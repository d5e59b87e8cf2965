import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { TrustedIssuerInput } from '../../contract/admin/trusted-issuer-contract.js';
import { appendAuditEvent } from '../audit/audit-log.js';
import { getTenant } from '../tenants/tenant-service.js';
import { TrustedIssuer } from './trusted-issuer.entity.js';
import { unresolvedKeysWarning } from './trusted-issuer-warnings.js';
import type { VerifierServices } from './verifier-services.js';

const view = (t: TrustedIssuer) => ({ issuer: t.issuer, ...(t.jwks ? { jwks: t.jwks } : {}) });

/** The issuers a tenant trusts by their keys (the admin API and the tenant's own API both read here). */
export async function listTrustedIssuers(em: EntityManager, tenantId: string) {
  await getTenant(em, tenantId);
  return (await em.find(TrustedIssuer, { tenantId })).map(view);
}

/**
 * Trusts an issuer for the tenant, audited. One trusted by its metadata is looked up now, before the
 * transaction (no connection waits on a fetch). One that cannot be reached is still trusted, since
 * it may be down for a while, but the warnings say so instead of a later untrusted_issuer.
 */
export async function trustIssuer(
  em: EntityManager,
  verifier: Pick<VerifierServices, 'issuerMetadataKeys'>,
  tenantId: string,
  body: z.infer<typeof TrustedIssuerInput>,
  actor: string,
) {
  await getTenant(em, tenantId);
  const keysError = body.jwks
    ? null
    : await verifier.issuerMetadataKeys(body.issuer).then(
        () => null,
        (e: Error) => e.message,
      );
  const row = {
    tenantId,
    issuer: body.issuer,
    jwks: body.jwks ?? null,
    keysError,
    keysCheckedAt: body.jwks ? null : new Date(),
  };
  const created = await em.transactional(async (tx) => {
    const existed = await tx.count(TrustedIssuer, { tenantId, issuer: body.issuer });
    await tx.upsert(TrustedIssuer, row);
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'verifier.issuer_trusted',
      subject: body.issuer,
      details: {
        keys: body.jwks ? 'configured' : 'metadata',
        ...(keysError ? { keys_resolved: false } : {}),
      },
    });
    return existed === 0;
  });
  return { created, answer: { ...body, warnings: keysError ? [unresolvedKeysWarning(row)] : [] } };
}

/** Stops trusting an issuer (audited even when it was not trusted: the request is on record). */
export async function untrustIssuer(em: EntityManager, tenantId: string, issuer: string, actor: string) {
  await getTenant(em, tenantId);
  await em.transactional(async (tx) => {
    await tx.nativeDelete(TrustedIssuer, { tenantId, issuer });
    await appendAuditEvent(tx, {
      tenantId,
      actor,
      action: 'verifier.issuer_untrusted',
      subject: issuer,
      details: {},
    });
  });
  return listTrustedIssuers(em, tenantId);
}
