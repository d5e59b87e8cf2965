import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { DomainError, notFound } from '../domain-errors.js';
import type { Signer } from '../keys/signer.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { checkConcernsParty, knownIdentifiers } from './party-binding.js';
import { readRegistrationCertificate, refuse } from './read-registration-certificate.js';
import { checkEntitlements, describeParty, registeredParty } from './registered-party.js';
import type { VouchForRegistrar } from './registrar-trust.js';
import type { RegistrationCertificate } from './registration-certificate.entity.js';
import { removeRegistrationCertificate, saveRegistrationCertificate } from './registration-certificates.js';

export interface RegistrationDeps {
  signer: Pick<Signer, 'certificateChain'>;
  /** Decides whether the registrar is trusted (registrar-trust.ts); throws to refuse. */
  vouch: VouchForRegistrar;
}

/** Whose certificate: a tenant's verifier, or the deployment's issuer (no tenant). */
export type Owner = { role: 'verifier'; tenant: Tenant } | { role: 'issuer'; tenant?: undefined };

const tenantIdOf = (owner: Owner) => owner.tenant?.id ?? null;

/**
 * Imports a registration certificate for `owner`, replacing the one before: read and checked
 * (read-registration-certificate.ts), registering this party as far as that can be told
 * (party-binding.ts) for this role (its entitlements), from a registrar `vouch` accepts. A refusal
 * stores nothing. A tenant's import is audited in its log; the issuer's belongs to no tenant's log
 * (as signing keys do not), so the route logs it.
 */
export async function importRegistrationCertificate(
  em: EntityManager,
  deps: RegistrationDeps,
  owner: Owner,
  compact: string,
  actor: string,
): Promise<Omit<RegistrationCertificate, 'id'>> {
  const read = await readRegistrationCertificate(compact);
  const party = registeredParty(read.payload);
  checkEntitlements(owner.role, party);
  checkConcernsParty(party, await knownIdentifiers(deps.signer, owner.role, owner.tenant));
  try {
    await deps.vouch(em, read.x5c, owner.role, owner.tenant?.id);
  } catch (e) {
    if (e instanceof DomainError) throw e;
    throw refuse(`its registrar is not trusted: ${(e as Error).message}`);
  }
  const row = {
    role: owner.role,
    tenantId: tenantIdOf(owner),
    jwt: read.jwt,
    sha256: read.sha256,
    subject: describeParty(party),
    issuer: read.leaf.subject,
    issuedAt: read.issuedAt,
    expiresAt: read.expiresAt,
    importedAt: new Date(),
  };
  await em.transactional(async (tx) => {
    await saveRegistrationCertificate(tx, row);
    if (owner.tenant)
      await appendAuditEvent(tx, {
        tenantId: owner.tenant.id,
        actor,
        action: 'verifier.registration_certificate_imported',
        subject: row.sha256,
        details: { subject: row.subject, issuer: row.issuer, expires_at: row.expiresAt.toISOString() },
      });
  });
  return row;
}

/** Removes `owner`'s certificate (404 when there is none); audited like the import. */
export async function removeOwnRegistrationCertificate(
  em: EntityManager,
  owner: Owner,
  actor: string,
): Promise<string> {
  return em.transactional(async (tx) => {
    const removed = await removeRegistrationCertificate(tx, owner.role, tenantIdOf(owner));
    if (!removed) throw notFound(`a ${owner.role} registration certificate`);
    if (owner.tenant)
      await appendAuditEvent(tx, {
        tenantId: owner.tenant.id,
        actor,
        action: 'verifier.registration_certificate_removed',
        subject: removed.sha256,
        details: {},
      });
    return removed.sha256;
  });
}
