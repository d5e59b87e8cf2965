import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AUTHORIZATION_CODE_GRANT } from '../../contract/issuance/issuance-request.js';
import { conflict } from '../domain-errors.js';
import { type IssuanceServices, recordIssuance } from '../issuance/create-issuance.js';
import { Issuance } from '../issuance/issuance.entity.js';
import { getTenant } from '../tenants/tenant-service.js';
import type { HolderRef } from './find-holder-by-email.js';
import { holderCredential } from './holder-credential.js';
import { revokeUserCredential } from './revoke-user-credential.js';
import { ScimUser } from './scim-user.entity.js';

/**
 * Wallet-initiated issuance, once the wallet has redeemed the holder's authorization code: the SCIM
 * user's current credential becomes an offer for that wallet, in the caller's transaction. A user
 * has one live credential (SCIM deactivation and deletion revoke exactly that one), so the one
 * before it (or a pending offer) is revoked as a PUT would; the new issuance is the user's from now
 * on. Everything is checked again with the user's row locked: a SCIM change since the sign-in wins.
 */
export async function offerToSignedInHolder(
  tx: EntityManager,
  services: IssuanceServices,
  holder: HolderRef,
  configurationId: string,
): Promise<Issuance> {
  const user = await tx.findOne(
    ScimUser,
    { id: holder.userId, tenantId: holder.tenantId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!user) throw conflict('the signed-in user no longer exists', 'holder-not-eligible');
  const tenant = await getTenant(tx, holder.tenantId);
  const credential = await holderCredential(tx, services.validator, tenant, user, configurationId);
  if ('refused' in credential) throw conflict(credential.refused, 'holder-not-eligible');
  if (credential.email.toLowerCase() !== holder.email.toLowerCase())
    throw conflict('the user’s e-mail address changed since the sign-in', 'holder-not-eligible');
  await revokeUserCredential(tx, user, 'holder', 'credential reissued to the holder’s wallet');
  const created = await recordIssuance(
    tx,
    services,
    {
      tenant,
      configuration: credential.configuration,
      payload: credential.payload,
      delivery: ['ui'],
      email: credential.email,
      grantType: AUTHORIZATION_CODE_GRANT,
    },
    'holder',
  );
  user.issuanceId = created.offerId;
  user.credentialPayloadHash = credential.hash;
  user.credentialReason = null;
  user.directCredential = null;
  await tx.flush();
  return tx.findOneOrFail(Issuance, { id: created.offerId });
}
