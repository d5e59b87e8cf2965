import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import { statementAudit } from '../../audit/audit-log.js';
import type { CredentialConfiguration } from '../../credential-configurations/credential-configuration.entity.js';
import {
  credentialsIssued,
  type IssuedBatch,
  insertCredentialsSql,
  signCredentialBatch,
} from '../../issuance/issue-credentials.js';
import { Params } from '../../persistence/sql.js';
import { reserveStatusEntries } from '../../status-list/allocate-status-entry.js';
import type { WalletIssuer } from '../claim-and-issue.js';
import { invalidTransactionId } from '../oauth-error.js';

/** An approved issuance as the deferred credential endpoint read it. */
export interface ApprovedIssuance {
  id: string;
  tenantId: string;
  payload: Record<string, unknown>;
  holderKeys: JWK[];
  transactionHash: string;
}

/**
 * Issues an approved issuance for the holder keys its deferred request proved, like claimAndIssue:
 * signed first, then one statement claims it (still approved with this transaction_id's hash), marks
 * it issued, erases its payload, the keys and the hash (the transaction_id is spent), and records the
 * credentials and the audit event. Of two racing requests the second claims nothing and is told the
 * transaction_id is no longer valid.
 */
export async function issueDeferred(
  em: EntityManager,
  ctx: WalletIssuer,
  approved: ApprovedIssuance,
  configuration: CredentialConfiguration,
): Promise<IssuedBatch> {
  const issuance = { id: approved.id, tenantId: approved.tenantId, payload: approved.payload };
  const keys = approved.holderKeys;
  const entries = await reserveStatusEntries(em, ctx.sql, ctx.issuerUrl, keys.length);
  const batch = await signCredentialBatch(ctx, issuance, configuration, keys, entries);
  const audit = statementAudit([credentialsIssued('wallet', issuance, configuration, batch, keys)]);
  const params = new Params();
  const text = `with claimed as (
      update issuance set status = 'issued', issued_at = now(), payload = null,
        deferred_transaction_hash = null, deferred_holder_keys = null
      where id = ${params.add(issuance.id)} and status = 'approved' and payload is not null
        and deferred_transaction_hash = ${params.add(approved.transactionHash)}
      returning id
    ), credentials as (${insertCredentialsSql(params, issuance, configuration, batch, 'claimed')}),
    ${audit.ctes(params, 'claimed')}
    select count(*)::int as claimed from claimed`;
  const [{ claimed } = { claimed: 0 }] = await ctx.sql.query<{ claimed: number }>(text, params.values);
  if (!claimed) throw invalidTransactionId('this transaction_id was used already');
  await audit.committed(em);
  return { credentials: batch.credentials, notificationId: batch.notificationId };
}
