import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { IssuanceQuery } from '../../contract/issuance/issuance-search.js';
import { Issuance } from './issuance.entity.js';
import { IssuedCredential } from './issued-credential.entity.js';

/**
 * A page of a tenant's issuances, newest first, with their credentials. `expired` is not a stored
 * status but an offered (or undecided) issuance past its expiry, so it is asked for by time; and
 * `offered` means one still open. One more row than the page is read to tell whether more follow.
 */
export async function searchIssuances(em: EntityManager, tenantId: string, q: IssuanceQuery) {
  const now = new Date();
  const where: FilterQuery<Issuance> = { tenantId };
  if (q.email) where.email = { $ilike: q.email.replace(/[\\%_]/g, (c) => `\\${c}`) };
  if (q.credential_configuration_id) where.configurationId = q.credential_configuration_id;
  if (q.created_after || q.created_before) {
    where.createdAt = {
      ...(q.created_after ? { $gte: new Date(q.created_after) } : {}),
      ...(q.created_before ? { $lt: new Date(q.created_before) } : {}),
    };
  }
  if (q.status === 'expired') {
    where.$or = [
      { status: 'offered', expiresAt: { $lte: now } },
      { status: 'awaiting_approval', approvalExpiresAt: { $lte: now } },
    ];
  } else if (q.status === 'offered') {
    Object.assign(where, { status: 'offered', expiresAt: { $gt: now } });
  } else if (q.status === 'awaiting_approval') {
    Object.assign(where, { status: 'awaiting_approval', approvalExpiresAt: { $gt: now } });
  } else if (q.status) {
    where.status = q.status;
  }
  const rows = await em.find(Issuance, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: q.limit + 1,
    offset: q.offset,
  });
  const page = rows.slice(0, q.limit);
  const credentials = page.length
    ? await em.find(
        IssuedCredential,
        { issuanceId: { $in: page.map((i) => i.id) } },
        { orderBy: { issuedAt: 'asc' } },
      )
    : [];
  const byIssuance = new Map<string, IssuedCredential[]>();
  for (const c of credentials)
    byIssuance.set(c.issuanceId ?? '', [...(byIssuance.get(c.issuanceId ?? '') ?? []), c]);
  return {
    items: page.map((issuance) => ({ issuance, credentials: byIssuance.get(issuance.id) ?? [] })),
    more: rows.length > q.limit,
  };
}
