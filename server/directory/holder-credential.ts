import type { EntityManager } from '@mikro-orm/postgresql';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import type { PayloadValidator } from '../credential-configurations/payload-validator.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { buildCredentialPayload } from './credential-payload.js';
import { provisioningOf } from './provisioning-settings.js';
import { readAttribute } from './scim-attribute-value.js';
import { ScimUser } from './scim-user.entity.js';
import { groupNamesOf } from './user-columns.js';

/** What SCIM provisioning would issue to a user now, when the user may have `configurationId`. */
export type HolderCredential =
  | { configuration: CredentialConfiguration; payload: Record<string, unknown>; hash: string; email: string }
  | { refused: string };

/** The user's primary e-mail address (the one provisioning mails offers to), if any. */
export function primaryEmailOf(user: ScimUser): string | undefined {
  const email = readAttribute(user.resource, 'emails[primary eq true].value');
  return typeof email === 'string' ? email : undefined;
}

/**
 * The credential a holder who signed in as `user` gets when their wallet asks for `configurationId`
 * (wallet-initiated issuance): exactly what syncUserCredential would issue — the tenant's
 * provisioning configuration, mappings and group powers over the user's current attributes — or why
 * not. Only that configuration: a wallet cannot pick another one the tenant happens to allow.
 */
export async function holderCredential(
  em: EntityManager,
  validator: PayloadValidator,
  tenant: Tenant,
  user: ScimUser,
  configurationId: string,
): Promise<HolderCredential> {
  if (!user.active) return { refused: 'the user is not active' };
  const email = primaryEmailOf(user);
  if (!email) return { refused: 'the user has no primary e-mail address' };
  const provisioning = await provisioningOf(em, tenant.id);
  if (provisioning.configurationId !== configurationId)
    return { refused: `the tenant provisions ${provisioning.configurationId ?? 'no credential'}` };
  if (tenant.credentialConfigurations && !tenant.credentialConfigurations.includes(configurationId))
    return { refused: 'the tenant may not issue this credential configuration' };
  const configuration = await findConfiguration(em, configurationId);
  if (!configuration) return { refused: `credential configuration ${configurationId} does not exist` };
  const groups = await groupNamesOf((sql, params) => em.execute(sql, params), user.id);
  const built = buildCredentialPayload(provisioning, tenant, configuration, user.resource, groups);
  if ('missing' in built) return { refused: `required attribute(s) missing: ${built.missing.join(', ')}` };
  const errors = validator.validate(configuration.id, configuration.payloadSchema, built.payload);
  if (errors.length) return { refused: 'the credential would be invalid' };
  return { configuration, payload: built.payload, hash: built.hash, email };
}

/** Why the signed-in holder cannot (or no longer) receive `configurationId`; undefined when they can. */
export async function holderRefusal(
  em: EntityManager,
  validator: PayloadValidator,
  holder: { tenantId: string; userId: string },
  configurationId: string,
): Promise<string | undefined> {
  const [user, tenant] = await Promise.all([
    em.findOne(ScimUser, { id: holder.userId, tenantId: holder.tenantId }),
    em.findOne(Tenant, { id: holder.tenantId }),
  ]);
  if (!user || !tenant) return 'the user no longer exists';
  const credential = await holderCredential(em, validator, tenant, user, configurationId);
  return 'refused' in credential ? credential.refused : undefined;
}
