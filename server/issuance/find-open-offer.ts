import type { EntityManager } from '@mikro-orm/postgresql';
import { Issuance } from './issuance.entity.js';

/** The issuance behind an offer id while a wallet may still redeem it: offered and not expired. */
export async function findOpenOffer(em: EntityManager, offerId: string): Promise<Issuance | null> {
  const issuance = await em.findOne(Issuance, {
    id: offerId,
    status: 'offered',
    expiresAt: { $gt: new Date() },
  });
  return issuance;
}
