import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import {
  type CredentialConfiguration,
  vctOf,
} from '../credential-configurations/credential-configuration.entity.js';
import type { Signer } from '../keys/signer.js';
import { allocateStatusEntry } from '../status-list/allocate-status-entry.js';
import type { Issuance } from './issuance.entity.js';
import { issueSdJwtVc } from './issue-sd-jwt-vc.js';
import { IssuedCredential } from './issued-credential.entity.js';

export interface IssueContext {
  signer: Signer;
  issuerUrl: string;
  actor: string;
}

export interface IssuedBatch {
  credentials: { id: string; credential: string }[];
  notificationId: string;
}

/**
 * Signs one credential per holder key (one for an unbound direct delivery) from the issuance's
 * payload, each with its own status list entry, inside the caller's transaction. The issuance is
 * then done: its payload is erased and it cannot be redeemed again.
 */
export async function issueCredentials(
  tx: EntityManager,
  ctx: IssueContext,
  issuance: Issuance,
  configuration: CredentialConfiguration,
  holderKeys: (Record<string, unknown> | undefined)[],
): Promise<IssuedBatch> {
  if (!issuance.payload) throw new Error(`issuance ${issuance.id} has no payload left to issue`);
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + configuration.validitySeconds * 1000);
  const notificationId = randomBytes(16).toString('base64url');
  const credentials: IssuedBatch['credentials'] = [];
  for (const holderJwk of holderKeys) {
    const status = await allocateStatusEntry(tx, ctx.issuerUrl);
    const id = randomUUID();
    tx.create(IssuedCredential, {
      id,
      tenantId: issuance.tenantId,
      issuanceId: issuance.id,
      configurationId: configuration.id,
      statusListId: status.listId,
      statusIdx: status.idx,
      status: 'valid',
      issuedAt,
      expiresAt,
      notificationId,
      walletNotification: null,
    });
    const credential = await issueSdJwtVc(ctx.signer, {
      issuer: ctx.issuerUrl,
      vct: vctOf(configuration, ctx.issuerUrl),
      claims: issuance.payload,
      selectivelyDisclosable: configuration.selectivelyDisclosable,
      issuedAt,
      expiresAt,
      status: { idx: status.idx, uri: status.uri },
      holderJwk,
    });
    credentials.push({ id, credential });
  }
  issuance.status = 'issued';
  issuance.issuedAt = issuedAt;
  issuance.payload = null;
  await tx.flush();
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
