import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import { claimRedeemedIssuance } from '../issuance/claim-redeemed-issuance.js';
import { type IssuedBatch, issueCredentials } from '../issuance/issue-credentials.js';
import type { Signer } from '../keys/signer.js';
import { transactionSql } from '../persistence/sql.js';
import type { CheckedCNonce } from './c-nonce-store.js';
import { credentialRequestDenied, invalidNonce, invalidToken } from './oauth-error.js';

/**
 * The credential endpoint's work once the request, its proofs (and key attestations) and their
 * c_nonces have been checked: in one transaction the issuance is claimed, the nonces are used up and
 * one credential per holder key is issued. Any failure leaves the nonces unused and the issuance
 * redeemable.
 */
export async function issueToWallet(
  em: EntityManager,
  ctx: { signer: Signer; issuerUrl: string },
  issuanceId: string,
  configuration: CredentialConfiguration,
  holder: { keys: JWK[]; cNonces: CheckedCNonce[] },
): Promise<IssuedBatch> {
  return em.transactional(async (tx) => {
    const issuance = await claimRedeemedIssuance(tx, issuanceId);
    if (issuance === 'issued')
      throw credentialRequestDenied('the credentials of this offer were already issued');
    if (issuance === 'not-redeemed') throw invalidToken('the access token is not valid for this offer');
    if (!(await useCNonces(tx, holder.cNonces)))
      throw invalidNonce('a proof or key attestation nonce is not a fresh c_nonce of this issuer');
    return issueCredentials(tx, { ...ctx, actor: 'wallet' }, issuance, configuration, holder.keys);
  });
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
