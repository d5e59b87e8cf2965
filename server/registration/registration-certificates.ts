import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  REGISTRATION_CERT_FORMAT,
  type RegistrationCertificateRole,
  type RegistrationCertificate as RegistrationCertificateView,
} from '../../contract/admin/registration-certificate.js';
import type { IssuerInfo } from '../../contract/oid4vci/issuer-info.js';
import type { VerifierInfo } from '../../contract/oid4vp/verifier-info.js';
import { frozenRow } from '../cache/frozen-row.js';
import { cached, invalidate } from '../cache/node-caches.js';
import { RegistrationCertificate } from './registration-certificate.entity.js';

const TOPIC = 'registration-certificates';
/** The cache key of a role's certificate: the verifier's per tenant, the issuer's one. */
const keyOf = (role: RegistrationCertificateRole, tenantId: string | null) =>
  role === 'verifier' ? `verifier ${tenantId}` : 'issuer';

/**
 * The certificate imported for `role` (the verifier's of `tenantId`, or the issuer's with null),
 * or null. Every request object and every metadata response reads it, and it changes only through
 * the admin API: from the node's cache, invalidated on every node by each change.
 */
export const findRegistrationCertificate = (
  em: EntityManager,
  role: RegistrationCertificateRole,
  tenantId: string | null,
): Promise<RegistrationCertificate | null> =>
  cached(em, TOPIC, keyOf(role, tenantId), async () => {
    const row = await em.findOne(RegistrationCertificate, { role, tenantId }, { disableIdentityMap: true });
    return row ? frozenRow(row) : null;
  });

/** Stores `row` as the role's certificate, replacing any before it. Call in the import's transaction. */
export async function saveRegistrationCertificate(
  tx: EntityManager,
  row: Omit<RegistrationCertificate, 'id'>,
): Promise<void> {
  const tenantId = row.tenantId ?? null;
  await tx.execute(
    `insert into registration_certificate
       (id, role, tenant_id, jwt, sha256, subject, issuer, issued_at, expires_at, imported_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (role, (coalesce(tenant_id, ''))) do update set
       jwt = excluded.jwt, sha256 = excluded.sha256, subject = excluded.subject, issuer = excluded.issuer,
       issued_at = excluded.issued_at, expires_at = excluded.expires_at, imported_at = excluded.imported_at`,
    [
      randomUUID(),
      row.role,
      tenantId,
      row.jwt,
      row.sha256,
      row.subject,
      row.issuer,
      row.issuedAt ?? null,
      row.expiresAt ?? null,
      row.importedAt,
    ],
  );
  await invalidate(tx, TOPIC, keyOf(row.role, tenantId));
}

/** Removes the role's certificate; the one removed, or undefined when there was none. */
export async function removeRegistrationCertificate(
  tx: EntityManager,
  role: RegistrationCertificateRole,
  tenantId: string | null,
): Promise<{ sha256: string } | undefined> {
  const removed: { sha256: string }[] = await tx.execute(
    `delete from registration_certificate where role = ? and tenant_id is not distinct from ? returning sha256`,
    [role, tenantId],
  );
  if (removed.length > 0) await invalidate(tx, TOPIC, keyOf(role, tenantId));
  return removed[0];
}

export const registrationCertificateView = (
  r: Omit<RegistrationCertificate, 'id'>,
): RegistrationCertificateView => ({
  role: r.role,
  format: REGISTRATION_CERT_FORMAT,
  subject: r.subject,
  issuer: r.issuer,
  issued_at: r.issuedAt?.toISOString() ?? null,
  expires_at: r.expiresAt?.toISOString() ?? null,
  sha256: r.sha256,
});

/** The JWT wallets are to receive: none once it has expired, since they would refuse it. */
async function current(em: EntityManager, role: RegistrationCertificateRole, tenantId: string | null) {
  const row = await findRegistrationCertificate(em, role, tenantId);
  return row && !(row.expiresAt && row.expiresAt.getTime() <= Date.now()) ? row.jwt : undefined;
}

/**
 * `verifier_info` for the tenant's request objects (OpenID4VP 1.0 section 5.1), with its
 * registration certificate and no `credential_ids`: it registers the verifier for what it may ask,
 * so it concerns every credential requested (and EUDI wallets refuse it with credential_ids).
 */
export async function verifierInfoOf(em: EntityManager, tenantId: string): Promise<VerifierInfo | undefined> {
  const jwt = await current(em, 'verifier', tenantId);
  return jwt ? [{ format: REGISTRATION_CERT_FORMAT, data: jwt }] : undefined;
}

/** `issuer_info` for the credential issuer metadata (ETSI TS 119 472-3 section 4.2.3). */
export async function issuerInfoOf(em: EntityManager): Promise<IssuerInfo | undefined> {
  const jwt = await current(em, 'issuer', null);
  return jwt ? [{ format: REGISTRATION_CERT_FORMAT, data: jwt }] : undefined;
}
