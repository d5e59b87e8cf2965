import type { EntityManager } from '@mikro-orm/postgresql';
import type { PayloadValidator } from '../../credential-configurations/payload-validator.js';
import { holderCredential } from '../../directory/holder-credential.js';
import type { HolderRecord } from '../../directory/match-presented-claims.js';
import { ScimUser } from '../../directory/scim-user.entity.js';
import { Issuance } from '../../issuance/issuance.entity.js';
import { Tenant } from '../../tenants/tenant.entity.js';
import type { HolderSignIn } from './holder-sign-in.js';

/**
 * What the tenant knows of the holder a sign-in is for, to match a presented credential against.
 * An offer: its payload, and the SCIM user it was made for when SCIM provisioning made it.
 * Wallet-initiated: the SCIM user the address selected, and the payload provisioning builds for them.
 */
export async function holderRecordOf(
  em: EntityManager,
  validator: PayloadValidator,
  signIn: HolderSignIn,
): Promise<HolderRecord> {
  const { issuanceId } = signIn.pending;
  if (issuanceId) {
    const issuance = await em.findOne(Issuance, { id: issuanceId }, { disableIdentityMap: true });
    const user = issuance
      ? await em.findOne(ScimUser, { issuanceId, tenantId: issuance.tenantId }, { disableIdentityMap: true })
      : null;
    return { payload: issuance?.payload ?? undefined, scim: user?.resource };
  }
  const { holder } = signIn;
  if (!holder) return {};
  const [user, tenant] = await Promise.all([
    em.findOne(ScimUser, { id: holder.userId, tenantId: holder.tenantId }, { disableIdentityMap: true }),
    em.findOne(Tenant, { id: holder.tenantId }),
  ]);
  if (!user || !tenant) return {};
  const credential = await holderCredential(em, validator, tenant, user, holder.configurationId);
  return { scim: user.resource, payload: 'refused' in credential ? undefined : credential.payload };
}
