import type { EntityManager } from '@mikro-orm/postgresql';
import { Issuance } from '../issuance/issuance.entity.js';
import { IssuedCredential } from '../issuance/issued-credential.entity.js';
import type { ScimUser } from './scim-user.entity.js';

export interface CredentialState {
  status: 'none' | 'offered' | 'valid' | 'suspended' | 'revoked';
  issuanceId?: string;
  credentialIds: string[];
  /** Why there is no current credential, or why it could not be renewed. */
  reason?: string;
}

/** The credential state of each user, read in two queries for a whole page of users. */
export async function credentialStates(
  em: EntityManager,
  users: ScimUser[],
): Promise<Map<string, CredentialState>> {
  const issuanceIds = users.map((u) => u.issuanceId).filter((id): id is string => Boolean(id));
  const [issuances, credentials] = issuanceIds.length
    ? await Promise.all([
        em.find(Issuance, { id: { $in: issuanceIds } }, { fields: ['id', 'status', 'expiresAt'] }),
        em.find(
          IssuedCredential,
          { issuanceId: { $in: issuanceIds } },
          { fields: ['id', 'issuanceId', 'status'] },
        ),
      ])
    : [[], []];
  const states = new Map<string, CredentialState>();
  for (const user of users) {
    const issuance = issuances.find((i) => i.id === user.issuanceId);
    const mine = credentials.filter((c) => c.issuanceId === user.issuanceId);
    let status: CredentialState['status'] = 'none';
    if (mine.some((c) => c.status === 'valid')) status = 'valid';
    else if (mine.some((c) => c.status === 'suspended')) status = 'suspended';
    else if (mine.length) status = 'revoked';
    else if (
      issuance &&
      (issuance.status === 'offered' || issuance.status === 'redeemed') &&
      issuance.expiresAt > new Date()
    )
      status = 'offered';
    states.set(user.id, {
      status,
      ...(user.issuanceId ? { issuanceId: user.issuanceId } : {}),
      credentialIds: mine.map((c) => c.id),
      ...(user.credentialReason ? { reason: user.credentialReason } : {}),
    });
  }
  return states;
}
