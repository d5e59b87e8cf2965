import type { EntityManager } from '@mikro-orm/postgresql';
import { ScimUser } from '../../directory/scim-user.entity.js';
import { Issuance } from '../../issuance/issuance.entity.js';
import { IssuedCredential } from '../../issuance/issued-credential.entity.js';
import type { Oid4vciRefreshFamily } from './refresh-family.entity.js';

/**
 * Why a family may no longer refresh its credential, or undefined when it may: its offer must be
 * redeemed or issued (not withdrawn), every credential issued from it still valid (a revocation or
 * suspension of any of them ends refreshing; a suspension only until it is lifted), and the SCIM
 * user it was issued to, if any, still there, active and holding this issuance (a renewal made a
 * new one). Reads only.
 */
export async function refreshRefusal(em: EntityManager, family: Oid4vciRefreshFamily) {
  // The directory first: deleting or deactivating a user also revokes, and this says why.
  if (family.scimUserId) {
    const user = await em.findOne(
      ScimUser,
      { id: family.scimUserId, tenantId: family.tenantId },
      { fields: ['active', 'issuanceId'], disableIdentityMap: true },
    );
    if (!user) return 'the holder was removed from the directory';
    if (!user.active) return 'the holder is inactive in the directory';
    if (user.issuanceId !== family.issuanceId)
      return 'the holder’s credential was renewed: use the new offer';
  }
  const issuance = await em.findOne(
    Issuance,
    { id: family.issuanceId },
    { fields: ['status'], disableIdentityMap: true },
  );
  if (issuance?.status !== 'redeemed' && issuance?.status !== 'issued')
    return 'the offer behind this refresh token was withdrawn';
  const credentials = await em.find(
    IssuedCredential,
    { issuanceId: family.issuanceId },
    { fields: ['status'], disableIdentityMap: true },
  );
  if (credentials.some((c) => c.status === 'revoked')) return 'the credential was revoked';
  if (credentials.some((c) => c.status === 'suspended')) return 'the credential is suspended';
  return undefined;
}
