import type { EntityManager } from '@mikro-orm/postgresql';
import { applyStatusAction } from '../issuance/change-credential-status.js';
import { Issuance } from '../issuance/issuance.entity.js';
import { IssuedCredential } from '../issuance/issued-credential.entity.js';
import type { ScimUser } from './scim-user.entity.js';

/**
 * Ends the user's current credential in the caller's transaction: an offer not yet redeemed is
 * withdrawn, credentials issued from it are revoked (their status list bits flip). Returns the ids
 * of the credentials revoked.
 */
export async function revokeUserCredential(tx: EntityManager, user: ScimUser, actor: string, reason: string) {
  const revoked: string[] = [];
  if (!user.issuanceId) return revoked;
  const issuance = await tx.findOne(Issuance, { id: user.issuanceId });
  if (issuance && (issuance.status === 'offered' || issuance.status === 'redeemed')) {
    issuance.status = 'withdrawn';
    issuance.payload = null;
  }
  const credentials = await tx.find(IssuedCredential, {
    issuanceId: user.issuanceId,
    status: { $in: ['valid', 'suspended'] },
  });
  for (const credential of credentials) {
    if (await applyStatusAction(tx, credential, 'revoke', actor, reason)) revoked.push(credential.id);
  }
  user.issuanceId = null;
  user.credentialPayloadHash = null;
  user.directCredential = null;
  await tx.flush();
  return revoked;
}

/** Whether the user holds a live credential or a pending offer. */
export async function hasLiveCredential(tx: EntityManager, user: ScimUser): Promise<boolean> {
  if (!user.issuanceId) return false;
  const issuance = await tx.findOne(Issuance, { id: user.issuanceId });
  if (!issuance) return false;
  if (issuance.status === 'offered' || issuance.status === 'redeemed') return issuance.expiresAt > new Date();
  if (issuance.status !== 'issued') return false;
  return (
    (await tx.count(IssuedCredential, { issuanceId: issuance.id, status: { $in: ['valid', 'suspended'] } })) >
    0
  );
}
