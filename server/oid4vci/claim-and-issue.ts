import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import { statementAudit } from '../audit/audit-log.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import {
  credentialsIssued,
  type IssuedBatch,
  insertCredentialsSql,
  signCredentialBatch,
} from '../issuance/issue-credentials.js';
import type { Signer } from '../keys/signer.js';
import { Params, type Sql } from '../persistence/sql.js';
import { reserveStatusEntries } from '../status-list/allocate-status-entry.js';
import type { AccessTokenGrant } from './access-token-store.js';
import type { CheckedCNonce } from './c-nonce-store.js';
import { credentialRequestDenied, invalidNonce, invalidToken } from './oauth-error.js';

/** What the credential endpoint issues with. */
export type WalletIssuer = { signer: Signer; issuerUrl: string; sql: Sql };
/** The holder keys a credential request proved, one credential each, and the c_nonces to spend. */
export type ProvenHolder = { keys: JWK[]; cNonces: CheckedCNonce[] };

/** The error of an issuance that could not be claimed: issued already, or not (or no longer) redeemed. */
export const unclaimed = (status: string | undefined) =>
  status === 'issued'
    ? credentialRequestDenied('the credentials of this offer were already issued')
    : invalidToken('the access token is not valid for this offer');

/** Used nonces past their expiry can no longer be replayed anyway: swept now and then. */
export async function sweepUsedNonces(sql: Sql): Promise<void> {
  if (Math.random() < 0.01) await sql.query('delete from oid4vci_nonce where expires_at < now()');
}

/**
 * The credential request of an offer's own access token, written by one statement and no
 * transaction: the credentials are signed first from the payload the token lookup read, then one
 * statement claims the issuance (a conditional UPDATE: still redeemed, payload still there), and only
 * if it did, records the c_nonces as used, the credentials and the audit event. Of two racing
 * requests the second waits on the row and claims nothing; a used c_nonce fails the whole statement
 * on its primary key. Either way nothing is written and the signed credentials are thrown away.
 */
export async function claimAndIssue(
  em: EntityManager,
  ctx: WalletIssuer,
  grant: AccessTokenGrant,
  configuration: CredentialConfiguration,
  holder: ProvenHolder,
): Promise<IssuedBatch> {
  const { status, tenantId, payload } = grant.issuance;
  if (status !== 'redeemed' || !payload) throw unclaimed(status);
  const issuance = { id: grant.issuanceId, tenantId, payload };
  const entries = await reserveStatusEntries(em, ctx.sql, ctx.issuerUrl, holder.keys.length);
  const batch = await signCredentialBatch(ctx, issuance, configuration, holder.keys, entries);
  const audit = statementAudit([credentialsIssued('wallet', issuance, configuration, batch, holder.keys)]);
  const params = new Params();
  const text = `with claimed as (
      update issuance set status = 'issued', issued_at = now(), payload = null
      where id = ${params.add(issuance.id)} and status = 'redeemed' and payload is not null
        and not approval_required
      returning id
    ), used_nonces as (
      insert into oid4vci_nonce (nonce_hash, expires_at)
      select n.hash, n.expires_at
      from unnest(${params.add(holder.cNonces.map((n) => n.hash))}::text[],
        ${params.add(holder.cNonces.map((n) => n.expiresAt))}::timestamptz[]) as n(hash, expires_at), claimed
    ), credentials as (${insertCredentialsSql(params, issuance, configuration, batch, 'claimed')}),
    ${audit.ctes(params, 'claimed')}
    select count(*)::int as claimed from claimed`;
  let claimed: number;
  try {
    [{ claimed } = { claimed: 0 }] = await ctx.sql.query<{ claimed: number }>(text, params.values);
  } catch (e) {
    if ((e as { constraint?: string }).constraint === 'oid4vci_nonce_pkey')
      throw invalidNonce('a proof or key attestation nonce is not a fresh c_nonce of this issuer');
    throw e;
  }
  if (!claimed) {
    // Another request claimed it first, or the offer was withdrawn meanwhile.
    const [now] = await ctx.sql.query<{ status: string }>('select status from issuance where id = $1', [
      issuance.id,
    ]);
    throw unclaimed(now?.status);
  }
  await audit.committed(em);
  await sweepUsedNonces(ctx.sql);
  return { credentials: batch.credentials, notificationId: batch.notificationId };
}
