import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { Issuance } from '../issuance/issuance.entity.js';
import { type IssuedBatch, issueCredentials } from '../issuance/issue-credentials.js';
import type { Signer } from '../keys/signer.js';
import { consumeCNonce } from './c-nonce-store.js';
import { credentialRequestDenied, invalidNonce, invalidToken } from './oauth-error.js';
import type { HolderKeys } from './proof/holder-keys.js';

/**
 * The credential endpoint's work once the request and its proofs have been checked: in one
 * transaction, the c_nonces (of the proofs and key attestations) are used up and one credential
 * per holder key is issued. Any failure leaves the nonces unused and the issuance redeemable.
 */
export async function issueToWallet(
  em: EntityManager,
  ctx: { signer: Signer; issuerUrl: string },
  issuanceId: string,
  configurationId: string,
  holder: HolderKeys,
): Promise<IssuedBatch> {
  return em.transactional(async (tx) => {
    const issuance = await tx.findOne(Issuance, { id: issuanceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!issuance) throw invalidToken('the offer of this access token no longer exists');
    if (issuance.status === 'issued')
      throw credentialRequestDenied('the credentials of this offer were already issued');
    if (issuance.status !== 'redeemed') throw invalidToken('the access token is not valid for this offer');
    const configuration = await findConfiguration(tx, configurationId);
    if (!configuration) throw new Error(`configuration ${configurationId} vanished`);
    for (const nonce of new Set(holder.nonces)) {
      if (!(await consumeCNonce(tx, ctx.signer, nonce)))
        throw invalidNonce('a proof or key attestation nonce is not a fresh c_nonce of this issuer');
    }
    return issueCredentials(tx, { ...ctx, actor: 'wallet' }, issuance, configuration, holder.keys);
  });
}
