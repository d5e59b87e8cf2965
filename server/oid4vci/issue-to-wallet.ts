import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { claimRedeemedIssuance } from '../issuance/claim-redeemed-issuance.js';
import { Issuance } from '../issuance/issuance.entity.js';
import { type IssuanceToIssue, type IssuedBatch, issueCredentials } from '../issuance/issue-credentials.js';
import { transactionSql } from '../persistence/sql.js';
import type { AccessTokenGrant } from './access-token-store.js';
import type { CheckedCNonce } from './c-nonce-store.js';
import {
  claimAndIssue,
  type ProvenHolder,
  sweepUsedNonces,
  unclaimed,
  type WalletIssuer,
} from './claim-and-issue.js';
import { invalidNonce, invalidToken } from './oauth-error.js';
import { refreshedIssuance } from './refresh/refreshed-issuance.js';

/**
 * The credential endpoint's work once the request, its proofs (and key attestations) and their
 * c_nonces have been checked. An offer's own access token claims the issuance with one statement
 * (claim-and-issue.ts). An access token of a refresh grant gets one fresh credential (batch) for an
 * issuance already issued, from its refresh family's copy of the payload, while the family lives and
 * the credential is in good standing, in one transaction that also uses up the nonces; the issuance
 * itself stays as it is. Any failure leaves the nonces unused and the issuance redeemable.
 */
export async function issueToWallet(
  em: EntityManager,
  ctx: WalletIssuer,
  grant: AccessTokenGrant,
  configuration: CredentialConfiguration,
  holder: ProvenHolder,
): Promise<IssuedBatch> {
  const refresh = grant.refresh;
  if (!refresh) return claimAndIssue(em, ctx, grant, configuration, holder);
  return em.transactional(async (tx) => {
    const issuance = await refreshedToIssue(tx, grant.issuanceId, refresh);
    if (!(await useCNonces(tx, holder.cNonces)))
      throw invalidNonce('a proof or key attestation nonce is not a fresh c_nonce of this issuer');
    return issueCredentials(tx, { ...ctx, actor: 'wallet' }, issuance, configuration, holder.keys);
  });
}

/** The redeemed issuance, claimed for issuing by one conditional UPDATE. */
async function claim(tx: EntityManager, issuanceId: string): Promise<IssuanceToIssue> {
  const issuance = await claimRedeemedIssuance(tx, issuanceId);
  if (typeof issuance === 'string') throw unclaimed(issuance);
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
  await sweepUsedNonces(sql);
  return used.length === nonces.length;
}
