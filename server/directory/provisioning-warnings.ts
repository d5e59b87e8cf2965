import type { EntityManager } from '@mikro-orm/postgresql';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { issuingFormat } from '../formats/credential-formats.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { companionsRefused } from './companion-credentials.js';
import { provisioningOf } from './provisioning-settings.js';

/**
 * What keeps a tenant's SCIM users from getting credentials, for the tenant's admin view: the same
 * reasons a user's credential extension would give one by one, found once for the whole tenant.
 */
export async function provisioningWarnings(em: EntityManager, tenant: Tenant): Promise<string[]> {
  const provisioning = await provisioningOf(em, tenant.id);
  const settings = `PUT /admin/v1/tenants/${tenant.id}/provisioning`;
  if (!provisioning.configurationId) {
    return [`SCIM users get no credential: no credential configuration is set for them (${settings})`];
  }
  const configuration = await findConfiguration(em, provisioning.configurationId);
  if (!configuration) {
    return [
      `SCIM users get no credential: credential configuration ${provisioning.configurationId} does not exist (${settings})`,
    ];
  }
  const employee = issuingFormat(configuration).employeeSchema(configuration);
  const required = (employee.required as unknown[] | undefined) ?? [];
  if (required.includes('mandator') && !tenant.mandator) {
    return [
      `SCIM users get no credential: ${configuration.id} requires a mandator and the tenant has none (PATCH /admin/v1/tenants/${tenant.id} with mandator)`,
    ];
  }
  if (provisioning.approvalRequired && tenant.delivery === 'direct') {
    return [
      `SCIM users get no credential: provisioning holds issuances for approval, which direct delivery cannot wait for (${settings} with approval_required false, or delivery email)`,
    ];
  }
  const refused = companionsRefused(tenant);
  if (refused && provisioning.additionalConfigurationIds.length)
    return [
      `SCIM users get no ${provisioning.additionalConfigurationIds.join(', ')}: ${refused} (${settings})`,
    ];
  return [];
}
