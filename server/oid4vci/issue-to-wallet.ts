import type { EntityManager } from '@mikro-orm/postgresql';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { claimRedeemedIssuance } from '../issuance/claim-redeemed-issuance.js';
import { type IssuedBatch, issueCredentials } from '../issuance/issue-credentials.js';
import type { Signer } from '../keys/signer.js';
import { transactionSql } from '../persistence/sql.js';
import type { CheckedCNonce } from './c-nonce-store.js';
import { credentialRequestDenied, invalidNonce, invalidToken } from './oauth-error.js';
import type { VerifiedProof } from './proof/verify-key-proof.js';

/**
 * The credential endpoint's work once the request, its proofs and their c_nonces have been checked:
 * in one transaction the issuance is claimed, the nonces are used up and one credential per proof
 * key is issued. Any failure leaves the nonces unused and the issuance redeemable.
 */
export async function issueToWallet(
  em: EntityManager,
  ctx: { signer: Signer; issuerUrl: string },
  issuanceId: string,
  configurationId: string,
  proofs: (VerifiedProof & { cNonce: CheckedCNonce })[],
): Promise<IssuedBatch> {
  const configuration = await findConfiguration(em, configurationId);
  if (!configuration) throw invalidToken(`the credential configuration ${configurationId} no longer exists`);
  return em.transactional(async (tx) => {
    const issuance = await claimRedeemedIssuance(tx, issuanceId);
    if (issuance === 'issued')
      throw credentialRequestDenied('the credentials of this offer were already issued');
    if (issuance === 'not-redeemed') throw invalidToken('the access token is not valid for this offer');
    if (!(await useCNonces(tx, proofs)))
      throw invalidNonce('the proof nonce is not a fresh c_nonce of this issuer');
    return issueCredentials(
      tx,
      { ...ctx, actor: 'wallet' },
      issuance,
      configuration,
      proofs.map((p) => p.jwk),
    );
  });
}

/**
 * Records the proofs' c_nonces as used, in one conditional insert: true when none was used before.
 * Proofs of one batch may share a nonce, which counts once.
 */
async function useCNonces(tx: EntityManager, proofs: { cNonce: CheckedCNonce }[]): Promise<boolean> {
  const nonces = [...new Map(proofs.map((p) => [p.cNonce.hash, p.cNonce])).values()];
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
