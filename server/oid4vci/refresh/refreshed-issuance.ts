import type { EntityManager } from '@mikro-orm/postgresql';
import type { Issuance } from '../../issuance/issuance.entity.js';
import { spendRefreshedAccessToken } from '../access-token-store.js';
import { credentialRequestDenied, invalidToken } from '../oauth-error.js';
import { Oid4vciRefreshFamily } from './refresh-family.entity.js';
import { refreshRefusal } from './refresh-refusal.js';

/**
 * What a refreshed access token issues from, in the credential request's transaction with the
 * issuance locked: the issuance itself while it is only redeemed; once issued, a copy of it with
 * the family's payload and status `redeemed`, so that issuing changes the copy and leaves the
 * issuance as it is (as a direct delivery beside an offer does). The token is spent either way: one
 * refresh, one credential response. Refused when the family ended (reuse), expired, or its
 * credential is no longer in good standing (revoked since the refresh).
 */
export async function refreshedIssuance(
  tx: EntityManager,
  issuance: Issuance,
  refresh: { familyId: string; tokenHash: string },
): Promise<Issuance> {
  const family = await tx.findOne(
    Oid4vciRefreshFamily,
    { id: refresh.familyId, expiresAt: { $gt: new Date() } },
    { disableIdentityMap: true },
  );
  if (!family) throw invalidToken('the refresh grant of this access token has ended');
  const refusal = await refreshRefusal(tx, family);
  if (refusal) throw credentialRequestDenied(refusal);
  if (!(await spendRefreshedAccessToken(tx, refresh.tokenHash)))
    throw credentialRequestDenied('this access token already got its fresh credential: refresh again');
  if (issuance.status !== 'issued') return issuance;
  return { ...issuance, status: 'redeemed', payload: family.payload };
}
