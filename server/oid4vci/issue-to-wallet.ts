import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import { statementAudit } from '../audit/audit-log.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { claimRedeemedIssuance } from '../issuance/claim-redeemed-issuance.js';
import { Issuance } from '../issuance/issuance.entity.js';
import {
  credentialsIssued,
  type IssuanceToIssue,
  type IssuedBatch,
  insertCredentialsSql,
  issueCredentials,
  signCredentialBatch,
} from '../issuance/issue-credentials.js';
import type { Signer } from '../keys/signer.js';
import { Params, type Sql, transactionSql } from '../persistence/sql.js';
import { reserveStatusEntries } from '../status-list/allocate-status-entry.js';
import type { AccessTokenGrant } from './access-token-store.js';
import type { CheckedCNonce } from './c-nonce-store.js';
import { credentialRequestDenied, invalidNonce, invalidToken } from './oauth-error.js';
import { refreshedIssuance } from './refresh/refreshed-issuance.js';

/**
 * The credential endpoint's work once the request, its proofs (and key attestations) and their
 * c_nonces have been checked: in one transaction the issuance is claimed, the nonces are used up and
 * one credential per holder key is issued. Any failure leaves the nonces unused and the issuance
 * redeemable.
 *
 * An access token of a refresh grant gets one fresh credential (batch) for an issuance already
 * issued, from its refresh family's copy of the payload, while the family lives and the credential
 * is in good standing; the issuance itself stays as it is.
 */
export async function issueToWallet(
  em: EntityManager,
  ctx: { signer: Signer; issuerUrl: string; sql: Sql },
  grant: AccessTokenGrant,
  configuration: CredentialConfiguration,
  holder: { keys: JWK[]; cNonces: CheckedCNonce[] },
): Promise<IssuedBatch> {
  if (!grant.refresh) return issueAndClaim(em, ctx, grant, configuration, holder);
  return em.transactional(async (tx) => {
    const issuance = grant.refresh
      ? await refreshedToIssue(tx, grant.issuanceId, grant.refresh)
      : await claim(tx, grant.issuanceId);
    if (!(await useCNonces(tx, holder.cNonces)))
      throw invalidNonce('a proof or key attestation nonce is not a fresh c_nonce of this issuer');
    return issueCredentials(tx, { ...ctx, actor: 'wallet' }, issuance, configuration, holder.keys);
  });
}

/**
 * The credential request of an offer's own access token, written by one statement and no
 * transaction: the credentials are signed first from the payload the token lookup read, then one
 * statement claims the issuance (a conditional UPDATE: still redeemed, payload still there), and only
 * if it did, records the c_nonces as used, the credentials and the audit event. Of two racing
 * requests the second waits on the row and claims nothing; a used c_nonce fails the whole statement
 * on its primary key. Either way nothing is written and the signed credentials are thrown away.
 */
async function issueAndClaim(
  em: EntityManager,
  ctx: { signer: Signer; issuerUrl: string; sql: Sql },
  grant: AccessTokenGrant,
  configuration: CredentialConfiguration,
  holder: { keys: JWK[]; cNonces: CheckedCNonce[] },
): Promise<IssuedBatch> {
  const { status, tenantId, payload } = grant.issuance;
  if (status === 'issued') throw credentialRequestDenied('the credentials of this offer were already issued');
  if (status !== 'redeemed' || !payload) throw invalidToken('the access token is not valid for this offer');
  const issuance = { id: grant.issuanceId, tenantId, payload };
  const entries = await reserveStatusEntries(em, ctx.sql, ctx.issuerUrl, holder.keys.length);
  const batch = await signCredentialBatch(ctx, issuance, configuration, holder.keys, entries);
  const audit = statementAudit([credentialsIssued('wallet', issuance, configuration, batch, holder.keys)]);
  const params = new Params();
  const text = `with claimed as (
      update issuance set status = 'issued', issued_at = now(), payload = null
      where id = ${params.add(issuance.id)} and status = 'redeemed' and payload is not null
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
    if (now?.status === 'issued')
      throw credentialRequestDenied('the credentials of this offer were already issued');
    throw invalidToken('the access token is not valid for this offer');
  }
  await audit.committed(em);
  // Used nonces past their expiry can no longer be replayed anyway; swept now and then.
  if (Math.random() < 0.01) await ctx.sql.query('delete from oid4vci_nonce where expires_at < now()');
  return { credentials: batch.credentials, notificationId: batch.notificationId };
}

/** The redeemed issuance, claimed for issuing by one conditional UPDATE. */
async function claim(tx: EntityManager, issuanceId: string): Promise<IssuanceToIssue> {
  const issuance = await claimRedeemedIssuance(tx, issuanceId);
  if (issuance === 'issued')
    throw credentialRequestDenied('the credentials of this offer were already issued');
  if (issuance === 'not-redeemed') throw invalidToken('the access token is not valid for this offer');
  return issuance;
}

/**
 * What a refreshed token issues from: the family's copy once the issuance was issued; before that,
 * the issuance itself, claimed as usual. Its row is locked while the family is checked.
 */
async function refreshedToIssue(
  tx: EntityManager,
  issuanceId: string,
  refresh: NonNullable<AccessTokenGrant['refresh']>,
): Promise<IssuanceToIssue> {
  const found = await tx.findOne(Issuance, { id: issuanceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!found) throw invalidToken('the offer of this access token no longer exists');
  const issuance = await refreshedIssuance(tx, found, refresh);
  return issuance === found ? claim(tx, issuanceId) : issuance;
}

/** Records the c_nonces as used, in one conditional insert: true when none was used before. */
async function useCNonces(tx: EntityManager, nonces: CheckedCNonce[]): Promise<boolean> {
  const sql = transactionSql(tx);
  const used = await sql.query(
    `insert into oid4vci_nonce (nonce_hash, expires_at)
     select * from unnest($1::text[], $2::timestamptz[])
     on conflict (nonce_hash) do nothing returning nonce_hash`,
    [nonces.map((n) => n.hash), nonces.map((n) => n.expiresAt)],
  );
  // Used nonces past their expiry can no longer be replayed anyway; swept now and then.
  if (Math.random() < 0.01) await sql.query('delete from oid4vci_nonce where expires_at < now()');
  return used.length === nonces.length;
}
