import type { EntityManager } from '@mikro-orm/postgresql';
import { type IssuanceServices, recordIssuance } from '../issuance/create-issuance.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { issueCompanions } from './companion-credentials.js';
import { decideUserCredential, type SyncOptions, type SyncTrigger } from './decide-user-credential.js';
import { revokeUserCredential } from './revoke-user-credential.js';
import type { ScimUser } from './scim-user.entity.js';
import { issuedOutcome, type SyncOutcome, settledOutcome } from './sync-outcome.js';

export type { SyncOptions, SyncTrigger } from './decide-user-credential.js';
export type { SyncOutcome } from './sync-outcome.js';

/**
 * Brings a user's credential in line with the user (the rules are decideUserCredential's): ends
 * it, leaves it, or revokes it and issues anew. Runs in the caller's transaction. Why the user ends
 * up without a credential is kept on the user (their credential extension shows it), as is a
 * credential signed for direct delivery. A new user's POST takes the one-statement way instead
 * (provision-new-user.ts).
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
  const decision = await decideUserCredential(tx, services, tenant, user, groupNames, trigger, options);
  if (decision.kind !== 'issue') {
    const revoked =
      decision.kind === 'end' ? await revokeUserCredential(tx, user, actor, decision.reason) : [];
    return settledOutcome(decision, revoked);
  }

  const revoked = await revokeUserCredential(tx, user, actor, 'credential renewed');
  const { configuration, payload, email } = decision;
  const created = await recordIssuance(
    tx,
    services,
    {
      tenant,
      configuration,
      payload,
      delivery: [tenant.delivery],
      email,
      // The integrator API's approval_required, on the same path: the wallet's request is deferred.
      approvalRequired: decision.provisioning.approvalRequired,
    },
    actor,
  );
  user.issuanceId = created.offerId;
  user.credentialPayloadHash = decision.hash;
  user.directCredential = created.credential?.credential ?? null;
  const companions = await issueCompanions(tx, services, {
    tenant,
    provisioning: decision.provisioning,
    resource: user.resource,
    groupNames,
    mainIssuanceId: created.offerId,
    email,
    actor,
  });
  // The user is written once, by the caller's flush, with all of this.
  return issuedOutcome(decision, {
    offerId: created.offerId,
    credential: created.credential,
    revoked,
    companionOfferIds: companions.offerIds,
    companionsSkipped: companions.skipped,
  });
}
