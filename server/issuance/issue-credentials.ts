import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuditEntry, appendAuditEvent } from '../audit/audit-log.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { issuingFormat } from '../formats/credential-formats.js';
import type { Signer } from '../keys/signer.js';
import { Params, transactionSql } from '../persistence/sql.js';
import { allocateStatusEntries, type StatusEntry } from '../status-list/allocate-status-entry.js';
import { batchValidity } from './batch-validity.js';
import type { Issuance } from './issuance.entity.js';

export interface IssueContext {
  signer: Signer;
  issuerUrl: string;
  actor: string;
}

export interface IssuedBatch {
  credentials: { id: string; credential: string }[];
  notificationId: string;
}

/** What of an issuance its credentials are made from. */
export type IssuanceToIssue = Pick<Issuance, 'id' | 'tenantId' | 'payload'>;

/** A batch signed and not yet recorded: what its INSERT and its audit event need besides. */
export interface SignedBatch extends IssuedBatch {
  issuedAt: Date;
  expiresAt: Date;
  entries: StatusEntry[];
}

/**
 * Signs one credential per holder key (one for an unbound direct delivery) from the issuance's
 * payload, each with its own status list entry (reserved by the caller, one per key). Writes nothing.
 */
export async function signCredentialBatch(
  ctx: Pick<IssueContext, 'signer' | 'issuerUrl'>,
  issuance: IssuanceToIssue,
  configuration: CredentialConfiguration,
  holderKeys: (Record<string, unknown> | undefined)[],
  entries: StatusEntry[],
): Promise<SignedBatch> {
  if (!issuance.payload) throw new Error(`issuance ${issuance.id} has no payload left to issue`);
  const { issuedAt, expiresAt } = batchValidity(new Date(), configuration.validitySeconds);
  const format = issuingFormat(configuration);
  const credentials: IssuedBatch['credentials'] = [];
  for (const [i, holderJwk] of holderKeys.entries()) {
    const status = entries[i] as StatusEntry;
    const credential = await format.signCredential(ctx.signer, {
      configuration,
      issuerUrl: ctx.issuerUrl,
      claims: issuance.payload,
      issuedAt,
      expiresAt,
      status: { idx: status.idx, uri: status.uri },
      holderJwk,
    });
    credentials.push({ id: randomUUID(), credential });
  }
  return { credentials, notificationId: randomBytes(16).toString('base64url'), issuedAt, expiresAt, entries };
}

/**
 * The INSERT of a signed batch's credential rows, its values added to `params`; with `gate` (a CTE
 * of the same statement) only if that CTE yields a row.
 */
export function insertCredentialsSql(
  params: Params,
  issuance: IssuanceToIssue,
  configuration: CredentialConfiguration,
  batch: SignedBatch,
  gate?: string,
): string {
  const p = (value: unknown) => params.add(value);
  return `insert into issued_credential (id, tenant_id, issuance_id, configuration_id, status_list_id, status_idx,
       status, issued_at, expires_at, notification_id, wallet_notification)
     select c.id, ${p(issuance.tenantId)}, ${p(issuance.id)}, ${p(configuration.id)}, c.list_id, c.idx, 'valid',
       ${p(batch.issuedAt)}::timestamptz, ${p(batch.expiresAt)}::timestamptz, ${p(batch.notificationId)}, null
     from unnest(${p(batch.credentials.map((c) => c.id))}::uuid[], ${p(batch.entries.map((e) => e.listId))}::text[],
       ${p(batch.entries.map((e) => e.idx))}::int[]) as c(id, list_id, idx)${gate ? `, ${gate}` : ''}`;
}

/** The audit event of an issued batch. */
export const credentialsIssued = (
  actor: string,
  issuance: IssuanceToIssue,
  configuration: CredentialConfiguration,
  batch: SignedBatch,
  holderKeys: (Record<string, unknown> | undefined)[],
): AuditEntry => ({
  tenantId: issuance.tenantId,
  actor,
  action: 'credential.issued',
  subject: issuance.id,
  details: {
    configuration: configuration.id,
    credentials: batch.credentials.map((c) => c.id),
    bound: holderKeys.some(Boolean),
  },
});

/**
 * Issues a batch inside the caller's transaction: one statement reserves the status entries, one
 * records the credentials, and the audit event is written at commit. Marking the issuance done is
 * the caller's part (a direct delivery updates its entity).
 */
export async function issueCredentials(
  tx: EntityManager,
  ctx: IssueContext,
  issuance: IssuanceToIssue,
  configuration: CredentialConfiguration,
  holderKeys: (Record<string, unknown> | undefined)[],
): Promise<IssuedBatch> {
  const entries = await allocateStatusEntries(tx, ctx.issuerUrl, holderKeys.length);
  const batch = await signCredentialBatch(ctx, issuance, configuration, holderKeys, entries);
  const params = new Params();
  await transactionSql(tx).query(insertCredentialsSql(params, issuance, configuration, batch), params.values);
  await appendAuditEvent(tx, credentialsIssued(ctx.actor, issuance, configuration, batch, holderKeys));
  return { credentials: batch.credentials, notificationId: batch.notificationId };
}
