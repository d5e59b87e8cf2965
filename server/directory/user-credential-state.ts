import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScimUser } from './scim-user.entity.js';

export interface CredentialState {
  status: 'none' | 'offered' | 'awaiting_approval' | 'valid' | 'suspended' | 'revoked';
  issuanceId?: string;
  credentialIds: string[];
  /** Why there is no current credential, or why it could not be renewed. */
  reason?: string;
}

/** A user's issuance with its credentials (oldest first), as the state is derived from it. */
export interface IssuanceRow {
  id: string;
  status: string;
  /** A timestamp, or its milliseconds since the epoch. */
  expires_at: string | number | Date;
  credentials: { id: string; status: string }[];
}

type StateUser = Pick<ScimUser, 'id' | 'issuanceId' | 'credentialReason'>;

/** The credential state of each user, read in one query for a whole page of users. */
export async function credentialStates(
  em: EntityManager,
  users: StateUser[],
): Promise<Map<string, CredentialState>> {
  const issuanceIds = users.map((u) => u.issuanceId).filter((id): id is string => Boolean(id));
  const rows = issuanceIds.length
    ? await em.execute<IssuanceRow[]>(
        `select i.id, i.status, i.expires_at,
           coalesce(json_agg(json_build_object('id', c.id, 'status', c.status) order by c.issued_at, c.id)
             filter (where c.id is not null), '[]') as credentials
         from issuance i left join issued_credential c on c.issuance_id = i.id
         where i.id in (?) group by i.id`,
        [issuanceIds],
      )
    : [];
  const byIssuance = new Map(rows.map((r) => [r.id, r]));
  const now = new Date();
  return new Map(
    users.map((u) => [
      u.id,
      credentialStateOf(u, u.issuanceId ? byIssuance.get(u.issuanceId) : undefined, now),
    ]),
  );
}

/** The state of one user's credential, given the issuance the user points at (if it still exists). */
export function credentialStateOf(
  user: StateUser,
  issuance: IssuanceRow | undefined,
  now = new Date(),
): CredentialState {
  const mine = issuance?.credentials ?? [];
  let status: CredentialState['status'] = 'none';
  if (mine.some((c) => c.status === 'valid')) status = 'valid';
  else if (mine.some((c) => c.status === 'suspended')) status = 'suspended';
  else if (mine.length) status = 'revoked';
  else if (
    issuance &&
    (issuance.status === 'offered' || issuance.status === 'redeemed') &&
    new Date(issuance.expires_at) > now
  )
    status = 'offered';
  // A deferred issuance: the wallet asked and waits for approval; once approved it collects (offered).
  else if (issuance?.status === 'awaiting_approval') status = 'awaiting_approval';
  else if (issuance?.status === 'approved') status = 'offered';
  return {
    status,
    ...(user.issuanceId ? { issuanceId: user.issuanceId } : {}),
    credentialIds: mine.map((c) => c.id),
    ...(user.credentialReason ? { reason: user.credentialReason } : {}),
  };
}
