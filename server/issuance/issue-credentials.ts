import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import {
  type CredentialConfiguration,
  vctOf,
} from '../credential-configurations/credential-configuration.entity.js';
import type { Signer } from '../keys/signer.js';
import { transactionSql } from '../persistence/sql.js';
import { allocateStatusEntries, type StatusEntry } from '../status-list/allocate-status-entry.js';
import type { Issuance } from './issuance.entity.js';
import { issueSdJwtVc } from './issue-sd-jwt-vc.js';

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

/**
 * Signs one credential per holder key (one for an unbound direct delivery) from the issuance's
 * payload, each with its own status list entry, inside the caller's transaction: one statement
 * reserves the entries, one records the credentials. Marking the issuance done is the caller's
 * part (the wallet's request has already claimed it; a direct delivery updates its entity).
 */
export async function issueCredentials(
  tx: EntityManager,
  ctx: IssueContext,
  issuance: IssuanceToIssue,
  configuration: CredentialConfiguration,
  holderKeys: (Record<string, unknown> | undefined)[],
): Promise<IssuedBatch> {
  if (!issuance.payload) throw new Error(`issuance ${issuance.id} has no payload left to issue`);
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + configuration.validitySeconds * 1000);
  const notificationId = randomBytes(16).toString('base64url');
  const entries = await allocateStatusEntries(tx, ctx.issuerUrl, holderKeys.length);
  const vct = vctOf(configuration, ctx.issuerUrl);
  const credentials: IssuedBatch['credentials'] = [];
  for (const [i, holderJwk] of holderKeys.entries()) {
    const status = entries[i] as StatusEntry;
    const credential = await issueSdJwtVc(ctx.signer, {
      issuer: ctx.issuerUrl,
      vct,
      claims: issuance.payload,
      selectivelyDisclosable: configuration.selectivelyDisclosable,
      issuedAt,
      expiresAt,
      status: { idx: status.idx, uri: status.uri },
      holderJwk,
    });
    credentials.push({ id: randomUUID(), credential });
  }
  await transactionSql(tx).query(
    `insert into issued_credential (id, tenant_id, issuance_id, configuration_id, status_list_id, status_idx,
       status, issued_at, expires_at, notification_id, wallet_notification)
     select id, $1, $2, $3, list_id, idx, 'valid', $4, $5, $6, null
     from unnest($7::uuid[], $8::text[], $9::int[]) as c(id, list_id, idx)`,
    [
      issuance.tenantId,
      issuance.id,
      configuration.id,
      issuedAt,
      expiresAt,
      notificationId,
      credentials.map((c) => c.id),
      entries.map((e) => e.listId),
      entries.map((e) => e.idx),
    ],
  );
  await appendAuditEvent(tx, {
    tenantId: issuance.tenantId,
    actor: ctx.actor,
    action: 'credential.issued',
    subject: issuance.id,
    details: {
      configuration: configuration.id,
      credentials: credentials.map((c) => c.id),
      bound: holderKeys.some(Boolean),
    },
  });
  return { credentials, notificationId };
}
