import type { EntityManager } from '@mikro-orm/postgresql';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { issuingFormat } from '../formats/credential-formats.js';
import { type IssuanceServices, recordIssuance } from '../issuance/create-issuance.js';
import { ScimError } from '../scim/scim-error.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { buildCredentialPayload } from './credential-payload.js';
import { provisioningOf } from './provisioning-settings.js';
import { hasLiveCredential, revokeUserCredential } from './revoke-user-credential.js';
import { readAttribute } from './scim-attribute-value.js';
import type { ScimUser } from './scim-user.entity.js';

export type SyncTrigger = 'provision' | 'replace' | 'update' | 'remove';

export interface SyncOutcome {
  outcome: 'issued' | 'renewed' | 'unchanged' | 'revoked' | 'none';
  reason?: string;
  issued: string[];
  revoked: string[];
  offerId?: string;
  /** The signed credential, for a tenant with direct delivery. */
  credential?: string;
  /** Required mapped attributes the user lacks (only with `missingAttributes: 'report'`). */
  missing?: string[];
}

export interface SyncOptions {
  /**
   * `refuse` (a write to the user): a required attribute missing is a SCIM invalidValue error, and
   * the whole request changes nothing. `report` (a group change re-evaluating its members): it is
   * an outcome `none` with the attributes in `missing`, for the caller to decide and record.
   */
  missingAttributes: 'refuse' | 'report';
}

/**
 * Brings a user's credential in line with the user (SPEC section 3): a new or reactivated user gets
 * one; a change to what the credential says revokes it and issues anew; deactivation and deletion
 * revoke. Runs in the caller's transaction. Why the user ends up without a credential is kept on the
 * user (their credential extension shows it), as is a credential signed for direct delivery.
 */
export async function syncUserCredential(
  tx: EntityManager,
  services: IssuanceServices,
  tenant: Tenant,
  user: ScimUser,
  groupNames: string[],
  trigger: SyncTrigger,
  actor: string,
  options: SyncOptions = { missingAttributes: 'refuse' },
): Promise<SyncOutcome> {
  const sync = await bringInLine(tx, services, tenant, user, groupNames, trigger, actor, options);
  user.credentialReason = sync.reason ?? null;
  return sync;
}

async function bringInLine(
  tx: EntityManager,
  services: IssuanceServices,
  tenant: Tenant,
  user: ScimUser,
  groupNames: string[],
  trigger: SyncTrigger,
  actor: string,
  options: SyncOptions,
): Promise<SyncOutcome> {
  const none = (reason: string): SyncOutcome => ({ outcome: 'none', reason, issued: [], revoked: [] });
  if (trigger === 'remove' || !user.active) {
    const reason = trigger === 'remove' ? 'user deleted' : 'user deactivated';
    const revoked = await revokeUserCredential(tx, user, actor, reason);
    return { outcome: revoked.length ? 'revoked' : 'none', reason, issued: [], revoked };
  }
  const provisioning = await provisioningOf(tx, tenant.id);
  if (!provisioning.configurationId) return none('the tenant has no credential configuration for its users');
  const configuration = await findConfiguration(tx, provisioning.configurationId);
  if (!configuration) return none(`credential configuration ${provisioning.configurationId} does not exist`);

  const built = buildCredentialPayload(provisioning, tenant, configuration, user.resource, groupNames);
  if ('missing' in built) {
    const reason = `required attribute(s) missing: ${built.missing.join(', ')}`;
    if (options.missingAttributes === 'refuse') throw new ScimError(400, reason, 'invalidValue');
    return { ...none(reason), missing: built.missing };
  }
  const errors = services.validator.validate(configuration.id, configuration.payloadSchema, built.payload);
  if (errors.length)
    return none(
      `the credential would be invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
    );

  const live = await hasLiveCredential(tx, user);
  const renewAnyway = trigger === 'replace' && provisioning.renewOnEveryPut;
  if (live && user.credentialPayloadHash === built.hash && !renewAnyway)
    return { outcome: 'unchanged', issued: [], revoked: [] };

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
  const revoked = await revokeUserCredential(tx, user, actor, 'credential renewed');
  const created = await recordIssuance(
    tx,
    services,
    {
      tenant,
      configuration,
      payload: built.payload,
      delivery: [tenant.delivery],
      email: typeof email === 'string' ? email : undefined,
      // The integrator API's approval_required, on the same path: the wallet's request is deferred.
      approvalRequired: provisioning.approvalRequired,
    },
    actor,
  );
  user.issuanceId = created.offerId;
  user.credentialPayloadHash = built.hash;
  user.directCredential = created.credential?.credential ?? null;
  // The user is written once, by the caller's flush, with all of this.
  return {
    outcome: live ? 'renewed' : 'issued',
    issued: created.credential ? [created.credential.id] : [],
    revoked,
    offerId: created.offerId,
    ...(created.credential ? { credential: created.credential.credential } : {}),
  };
}
