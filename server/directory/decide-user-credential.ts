import type { EntityManager } from '@mikro-orm/postgresql';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { issuingFormat } from '../formats/credential-formats.js';
import type { IssuanceServices } from '../issuance/create-issuance.js';
import { ScimError } from '../scim/scim-error.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { buildCredentialPayload } from './credential-payload.js';
import { provisioningOf } from './provisioning-settings.js';
import { hasLiveCredential } from './revoke-user-credential.js';
import { readAttribute } from './scim-attribute-value.js';
import type { ScimUser } from './scim-user.entity.js';
import type { TenantProvisioning } from './tenant-provisioning.entity.js';

export type SyncTrigger = 'provision' | 'replace' | 'update' | 'remove';

export interface SyncOptions {
  /**
   * `refuse` (a write to the user): a required attribute missing is a SCIM invalidValue error, and
   * the whole request changes nothing. `report` (a group change re-evaluating its members): it is
   * an outcome `none` with the attributes in `missing`, for the caller to decide and record.
   */
  missingAttributes: 'refuse' | 'report';
  /** Whether the user holds a live credential, when the caller read it already (else it is asked). */
  live?: boolean;
}

/** What the provisioning rules say a user's credential should become; nothing written yet. */
export type CredentialDecision =
  /** Deleted or deactivated: whatever the user holds is ended. */
  | { kind: 'end'; reason: string }
  /** No credential can be issued; a live one is left alone (a later fix may renew it). */
  | { kind: 'none'; reason: string; missing?: string[] }
  | { kind: 'unchanged' }
  | {
      kind: 'issue';
      provisioning: TenantProvisioning;
      configuration: CredentialConfiguration;
      payload: Record<string, unknown>;
      hash: string;
      email: string | undefined;
      /** The user holds a live credential (or a pending offer) that this one replaces. */
      live: boolean;
    };

/**
 * The provisioning rules for one user (SPEC section 3), read from the node's caches: a new or
 * reactivated user gets a credential; a change to what it says renews it; deactivation and deletion
 * end it. Reads the database only to ask whether a user who has an issuance still holds it live.
 */
export async function decideUserCredential(
  em: EntityManager,
  services: Pick<IssuanceServices, 'validator'>,
  tenant: Tenant,
  user: Pick<ScimUser, 'active' | 'resource' | 'issuanceId' | 'credentialPayloadHash'>,
  groupNames: string[],
  trigger: SyncTrigger,
  options: SyncOptions = { missingAttributes: 'refuse' },
): Promise<CredentialDecision> {
  if (trigger === 'remove' || !user.active)
    return { kind: 'end', reason: trigger === 'remove' ? 'user deleted' : 'user deactivated' };
  const none = (reason: string): CredentialDecision => ({ kind: 'none', reason });
  const provisioning = await provisioningOf(em, tenant.id);
  if (!provisioning.configurationId) return none('the tenant has no credential configuration for its users');
  const configuration = await findConfiguration(em, provisioning.configurationId);
  if (!configuration) return none(`credential configuration ${provisioning.configurationId} does not exist`);

  const built = buildCredentialPayload(provisioning, tenant, configuration, user.resource, groupNames);
  if ('missing' in built) {
    const reason = `required attribute(s) missing: ${built.missing.join(', ')}`;
    if (options.missingAttributes === 'refuse') throw new ScimError(400, reason, 'invalidValue');
    return { kind: 'none', reason, missing: built.missing };
  }
  const errors = services.validator.validate(configuration.id, configuration.payloadSchema, built.payload);
  if (errors.length)
    return none(
      `the credential would be invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
    );

  const live = options.live ?? (user.issuanceId ? await hasLiveCredential(em, user) : false);
  const renewAnyway = trigger === 'replace' && provisioning.renewOnEveryPut;
  if (live && user.credentialPayloadHash === built.hash && !renewAnyway) return { kind: 'unchanged' };

  // Direct delivery has no holder key to bind to: a format that always binds (an mdoc) needs an offer.
  if (tenant.delivery === 'direct' && issuingFormat(configuration).holderBindingRequired)
    return none(
      `${configuration.id} is always bound to the holder's key, which direct delivery does not have: deliver it by e-mail`,
    );
  // Approval waits on the wallet's credential request; direct delivery signs in the SCIM response.
  if (tenant.delivery === 'direct' && provisioning.approvalRequired)
    return none(
      'the tenant holds issuances for approval, which direct delivery cannot wait for: deliver by e-mail',
    );
  const email = readAttribute(user.resource, 'emails[primary eq true].value');
  if (tenant.delivery === 'email' && typeof email !== 'string')
    return none('the user has no e-mail address to send the offer to');
  return {
    kind: 'issue',
    provisioning,
    configuration,
    payload: built.payload,
    hash: built.hash,
    email: typeof email === 'string' ? email : undefined,
    live,
  };
}
