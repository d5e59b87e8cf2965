import type { AuditEntry } from '../audit/audit-log.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import type { CheckedIssuance } from '../issuance/create-issuance.js';
import { credentialsIssued, type SignedBatch, signCredentialBatch } from '../issuance/issue-credentials.js';
import { type IssuancePlan, planIssuance } from '../issuance/plan-issuance.js';
import type { Sql } from '../persistence/sql.js';
import { reserveStatusEntries } from '../status-list/allocate-status-entry.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { companionIssuances } from './companion-credentials.js';
import type { CredentialDecision } from './decide-user-credential.js';
import type { ScimCall } from './scim-call.js';
import type { ScimUser } from './scim-user.entity.js';
import { issuedOutcome, type SyncOutcome } from './sync-outcome.js';

export type SignedIssuance = {
  signed: SignedBatch;
  plan: IssuancePlan;
  configuration: CredentialConfiguration;
};

/** A user's new credential as rows to write: the issuances (main first), a signed batch, their events. */
export interface PlannedCredential {
  plans: IssuancePlan[];
  batch: SignedIssuance | undefined;
  audits: AuditEntry[];
  sync: SyncOutcome;
}

/**
 * The rows that give a user the credential `decision` says they should have, decided in memory for a
 * one-statement write (a new user's POST, a change's PUT/PATCH): the main issuance, and those provisioned
 * beside it; for a direct delivery, the credential signed now (its status entry drawn from the process's
 * reserved block). Sets the user's credential columns; writes nothing.
 */
export async function planUserCredential(
  c: ScimCall,
  sql: Sql,
  tenant: Tenant,
  user: ScimUser,
  decision: Extract<CredentialDecision, { kind: 'issue' }>,
  groupNames: string[],
): Promise<PlannedCredential> {
  const { em, services, actor } = c;
  const main: CheckedIssuance = {
    tenant,
    configuration: decision.configuration,
    payload: decision.payload,
    delivery: [tenant.delivery],
    email: decision.email,
    approvalRequired: decision.provisioning.approvalRequired,
  };
  const plan = planIssuance(services, main, actor);
  const plans = [plan];
  const audits = [plan.audit];
  let batch: SignedIssuance | undefined;
  if (tenant.delivery === 'direct') {
    const entries = await reserveStatusEntries(em, sql, services.issuerUrl, 1);
    const signed = await signCredentialBatch(
      services,
      plan.issuance,
      decision.configuration,
      [undefined],
      entries,
    );
    batch = { signed, plan, configuration: decision.configuration };
    audits.push(credentialsIssued(actor, plan.issuance, decision.configuration, signed, [undefined]));
    plan.issuance = { ...plan.issuance, status: 'issued', issuedAt: new Date(), payload: null };
  }
  const companions = await companionIssuances(em, services, {
    tenant,
    provisioning: decision.provisioning,
    resource: user.resource,
    groupNames,
    mainIssuanceId: plan.issuance.id,
    email: decision.email,
  });
  for (const checked of companions.issuances) {
    const companion = planIssuance(services, checked, actor);
    plans.push(companion);
    audits.push(companion.audit);
  }
  const credential = batch?.signed.credentials[0];
  user.issuanceId = plan.issuance.id;
  user.credentialPayloadHash = decision.hash;
  user.directCredential = credential?.credential ?? null;
  user.credentialReason = null;
  const sync = issuedOutcome(decision, {
    offerId: plan.issuance.id,
    credential,
    revoked: [],
    companionOfferIds: plans.slice(1).map((p) => p.issuance.id),
    companionsSkipped: companions.skipped,
  });
  return { plans, batch, audits, sync };
}
