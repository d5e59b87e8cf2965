import { type AuditEntry, statementAudit } from '../audit/audit-log.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import type { CheckedIssuance } from '../issuance/create-issuance.js';
import { Issuance } from '../issuance/issuance.entity.js';
import {
  credentialsIssued,
  insertCredentialsSql,
  type SignedBatch,
  signCredentialBatch,
} from '../issuance/issue-credentials.js';
import { type IssuancePlan, planIssuance } from '../issuance/plan-issuance.js';
import { queueMailsSql } from '../mail/queue-mail.js';
import { entityShape, insertRowSql } from '../persistence/entity-rows.js';
import { Params, type Sql } from '../persistence/sql.js';
import { ScimError } from '../scim/scim-error.js';
import { reserveStatusEntries } from '../status-list/allocate-status-entry.js';
import { getTenant } from '../tenants/tenant-service.js';
import { companionIssuances } from './companion-credentials.js';
import { decideUserCredential } from './decide-user-credential.js';
import type { ScimCall } from './scim-call.js';
import { ScimUser } from './scim-user.entity.js';
import type { SyncOutcome } from './sync-user-credential.js';
import { userChangeAudit } from './user-change-audit.js';
import { newScimUser } from './user-columns.js';
import type { CredentialState } from './user-credential-state.js';

type SignedIssuance = { signed: SignedBatch; plan: IssuancePlan; configuration: CredentialConfiguration };

/** What a new user's POST wrote: the user, the outcome for the audit log, and its credential state. */
export interface NewUser {
  user: ScimUser;
  sync: SyncOutcome;
  state: CredentialState;
}

/**
 * POST /Users as one statement and no transaction: the provisioning rules decide in memory (from
 * the node's caches; a new user holds nothing to look up), a direct delivery's credential is signed
 * first (its status entry drawn from the process's reserved block), then one INSERT with CTEs writes
 * the user, its issuance and those provisioned beside it, the credential, the mails with their
 * outbox rows, the audit events and the webhook deliveries they raise — all or nothing. A userName
 * already taken fails the statement on the unique index: nothing is written (409 uniqueness), and a
 * credential signed for it never leaves the process.
 */
export async function provisionNewUser(
  c: ScimCall,
  sql: Sql,
  resource: Record<string, unknown>,
): Promise<NewUser> {
  const { em, services, tenantId, actor } = c;
  const tenant = await getTenant(em, tenantId);
  const user = newScimUser(tenantId, resource);
  const decision = await decideUserCredential(em, services, tenant, user, [], 'provision');

  const plans: IssuancePlan[] = [];
  const audits: AuditEntry[] = [];
  let batch: SignedIssuance | undefined;
  let sync: SyncOutcome = { outcome: 'none', issued: [], revoked: [] };
  if (decision.kind === 'none') {
    sync = { ...sync, reason: decision.reason };
    user.credentialReason = decision.reason;
  }
  if (decision.kind === 'issue') {
    const main: CheckedIssuance = {
      tenant,
      configuration: decision.configuration,
      payload: decision.payload,
      delivery: [tenant.delivery],
      email: decision.email,
      approvalRequired: decision.provisioning.approvalRequired,
    };
    const plan = planIssuance(services, main, actor);
    plans.push(plan);
    audits.push(plan.audit);
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
      resource,
      groupNames: [],
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
    sync = {
      outcome: 'issued',
      issued: credential ? [credential.id] : [],
      revoked: [],
      offerId: plan.issuance.id,
      ...(credential ? { credential: credential.credential } : {}),
      ...(plans.length > 1 ? { companionOfferIds: plans.slice(1).map((p) => p.issuance.id) } : {}),
      ...(companions.skipped.length ? { companionsSkipped: companions.skipped } : {}),
    };
  }
  audits.push(userChangeAudit(user, sync, 'scim.user.created', actor));
  await insertAll(c, sql, user, plans, batch, audits);
  return { user, sync, state: stateOf(user, sync) };
}

/** The one statement; a taken userName is the 409 it always was. */
async function insertAll(
  c: ScimCall,
  sql: Sql,
  user: ScimUser,
  plans: IssuancePlan[],
  batch: SignedIssuance | undefined,
  audits: AuditEntry[],
) {
  const params = new Params();
  const audit = statementAudit(audits);
  const issuanceShape = entityShape(c.em, Issuance);
  const mails = plans.flatMap((p) => p.mails);
  const ctes = [
    `u as (${insertRowSql(entityShape(c.em, ScimUser), params, user)} returning id)`,
    ...plans.map((p, i) => `i${i} as (${insertRowSql(issuanceShape, params, p.issuance)})`),
    ...(mails.length ? [queueMailsSql(params, mails)] : []),
    ...(batch
      ? [
          `credentials as (${insertCredentialsSql(params, batch.plan.issuance, batch.configuration, batch.signed)})`,
        ]
      : []),
    audit.ctes(params, 'u'),
  ];
  try {
    await sql.query(`with ${ctes.join(', ')} select count(*)::int as users from u`, params.values);
  } catch (e) {
    if ((e as { constraint?: string }).constraint === 'scim_user_name_idx')
      throw new ScimError(409, 'userName is already taken in this tenant', 'uniqueness');
    throw e;
  }
  await audit.committed(c.em);
}

/** The new user's credential state, known without reading it back. */
function stateOf(user: ScimUser, sync: SyncOutcome): CredentialState {
  const status = !sync.offerId ? 'none' : sync.issued.length ? 'valid' : 'offered';
  return {
    status,
    ...(user.issuanceId ? { issuanceId: user.issuanceId } : {}),
    credentialIds: sync.issued,
    ...(user.credentialReason ? { reason: user.credentialReason } : {}),
  };
}
