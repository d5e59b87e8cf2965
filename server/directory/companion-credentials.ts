import type { EntityManager } from '@mikro-orm/postgresql';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { type CheckedIssuance, type IssuanceServices, recordIssuance } from '../issuance/create-issuance.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { buildCredentialPayload } from './credential-payload.js';
import type { TenantProvisioning } from './tenant-provisioning.entity.js';

export interface CompanionRequest {
  tenant: Tenant;
  provisioning: TenantProvisioning;
  resource: Record<string, unknown>;
  groupNames: string[];
  /** The user's main issuance, just recorded: the companions follow it. */
  mainIssuanceId: string;
  email: string | undefined;
}

/** Why a tenant's companions are not issued at all, or undefined when they can be. */
export const companionsRefused = (tenant: Pick<Tenant, 'delivery'>) =>
  tenant.delivery === 'direct'
    ? 'credentials beside the main one are offered to a wallet, and direct delivery makes no offer'
    : undefined;

/**
 * The credentials a tenant provisions beside a user's main one (`additional_configuration_ids`, e.g.
 * the employee mdoc beside the SD-JWT VC): each built by the same mappings and powers in its own
 * format, offered as the main one is, and recorded as a companion of the main issuance, which it is
 * renewed and revoked with (endIssuance ends companions too). One that cannot be issued is named in
 * `skipped` with its reason and does not undo the main credential. Writes nothing: the caller records
 * `issuances` (recordIssuance in a transaction, or planned into one statement).
 */
export async function companionIssuances(
  em: EntityManager,
  services: Pick<IssuanceServices, 'validator'>,
  r: CompanionRequest,
): Promise<{ issuances: CheckedIssuance[]; skipped: string[] }> {
  const issuances: CheckedIssuance[] = [];
  const skipped: string[] = [];
  const ids = r.provisioning.additionalConfigurationIds;
  const refused = ids.length ? companionsRefused(r.tenant) : undefined;
  if (refused) return { issuances, skipped: ids.map((id) => `${id}: ${refused}`) };
  for (const id of ids) {
    const configuration = await findConfiguration(em, id);
    if (!configuration) {
      skipped.push(`${id}: the credential configuration does not exist`);
      continue;
    }
    const built = buildCredentialPayload(r.provisioning, r.tenant, configuration, r.resource, r.groupNames);
    const errors =
      'missing' in built
        ? [`required attribute(s) missing: ${built.missing.join(', ')}`]
        : services.validator
            .validate(configuration.id, configuration.payloadSchema, built.payload)
            .map((e) => `${e.field} ${e.message}`);
    if ('missing' in built || errors.length) {
      skipped.push(`${id}: the credential would be invalid: ${errors.join('; ')}`);
      continue;
    }
    issuances.push({
      tenant: r.tenant,
      configuration,
      payload: built.payload,
      delivery: [r.tenant.delivery],
      email: r.email,
      companionOf: r.mainIssuanceId,
      approvalRequired: r.provisioning.approvalRequired,
    });
  }
  return { issuances, skipped };
}

/** companionIssuances recorded in the caller's transaction; returns their offer ids. */
export async function issueCompanions(
  tx: EntityManager,
  services: IssuanceServices,
  r: CompanionRequest & { actor: string },
): Promise<{ offerIds: string[]; skipped: string[] }> {
  const { issuances, skipped } = await companionIssuances(tx, services, r);
  const offerIds: string[] = [];
  for (const checked of issuances)
    offerIds.push((await recordIssuance(tx, services, checked, r.actor)).offerId);
  return { offerIds, skipped };
}
