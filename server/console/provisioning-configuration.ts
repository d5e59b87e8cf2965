import type { EntityManager } from '@mikro-orm/postgresql';
import { provisioningOf } from '../directory/provisioning-settings.js';

/**
 * The credential the console asks employees for: the one the tenant provisions to its SCIM users
 * (where its powers come from), else the employee credential.
 */
export async function provisioningConfigurationOf(em: EntityManager, tenantId: string): Promise<string> {
  return (await provisioningOf(em, tenantId)).configurationId ?? 'LEARCredentialEmployee';
}
