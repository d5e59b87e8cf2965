import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { Issuance } from '../issuance/issuance.entity.js';
import { type IssuedBatch, issueCredentials } from '../issuance/issue-credentials.js';
import type { Signer } from '../keys/signer.js';
import type { AccessTokenGrant } from './access-token-store.js';
import { consumeCNonce } from './c-nonce-store.js';
import { credentialRequestDenied, invalidNonce, invalidToken } from './oauth-error.js';
import type { VerifiedProof } from './proof/verify-key-proof.js';
import { refreshedIssuance } from './refresh/refreshed-issuance.js';

/**
 * The credential endpoint's work once the request and its proofs have been checked: in one
 * transaction, the c_nonce is used up and one credential per proof key is issued. Any failure
 * leaves the nonce unused and the issuance redeemable.
 *
 * An access token of a refresh grant gets one fresh credential (batch) for an issuance already
 * issued, from its refresh family's copy of the payload, while the family lives and the credential
 * is in good standing; the issuance itself stays as it is.
 */
export async function issueToWallet(
  em: EntityManager,
  ctx: { signer: Signer; issuerUrl: string },
  grant: AccessTokenGrant,
  proofs: VerifiedProof[],
): Promise<IssuedBatch> {
  const { issuanceId, configurationId } = grant;
  return em.transactional(async (tx) => {
    const found = await tx.findOne(Issuance, { id: issuanceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!found) throw invalidToken('the offer of this access token no longer exists');
    const issuance = grant.refresh ? await refreshedIssuance(tx, found, grant.refresh) : found;
    if (issuance.status === 'issued')
      throw credentialRequestDenied('the credentials of this offer were already issued');
    if (issuance.status !== 'redeemed') throw invalidToken('the access token is not valid for this offer');
    const configuration = await findConfiguration(tx, configurationId);
    if (!configuration) throw new Error(`configuration ${configurationId} vanished`);
    for (const nonce of new Set(proofs.map((p) => p.nonce))) {
      if (!(await consumeCNonce(tx, ctx.signer, nonce)))
        throw invalidNonce('the proof nonce is not a fresh c_nonce of this issuer');
    }
    return issueCredentials(
      tx,
      { ...ctx, actor: 'wallet' },
      issuance,
      configuration,
      proofs.map((p) => p.jwk),
    );
  });
}
