import type { EntityManager } from '@mikro-orm/postgresql';
import type { PayloadValidator } from '../credential-configurations/payload-validator.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { holderCredential } from './holder-credential.js';
import { ScimUser } from './scim-user.entity.js';

/** The SCIM user a holder signed in as, in the tenant that issues them the configuration. */
export interface HolderRef {
  tenantId: string;
  userId: string;
  /** The user's primary address as provisioned (the one the one-time code goes to). */
  email: string;
  /** The configuration the user's tenant issues them: the one of those asked for that they get. */
  configurationId: string;
}

// More candidates than this for one address is a directory problem, not a holder to guess among.
const MAX_CANDIDATES = 10;

/**
 * Wallet-initiated issuance has no offer to name the tenant: the holder is found by address. The
 * candidates are the active SCIM users, of any tenant, whose primary e-mail is `email` (ignoring
 * case, as mail systems do); the holder is the one among them whose tenant provisions one of
 * `configurationIds` (the wallet may ask for several, OID4VCI 1.0 section 5.1.2) and whose credential
 * can be built. None, or more than one (the same person in two tenants issuing what was asked for:
 * which employer's credential is meant cannot be told), is no holder. The caller must not tell the
 * page which.
 */
export async function findHolderByEmail(
  em: EntityManager,
  validator: PayloadValidator,
  email: string,
  configurationIds: readonly string[],
): Promise<HolderRef | undefined> {
  const rows = await em.execute<{ id: string }[]>(
    `select u.id from scim_user u
     where u.active and jsonb_typeof(u.resource->'emails') = 'array'
       and exists (select 1 from jsonb_array_elements(u.resource->'emails') e
                   where lower(e->>'value') = lower(?) and e->>'primary' = 'true')
     limit ${MAX_CANDIDATES + 1}`,
    [email],
  );
  if (!rows.length || rows.length > MAX_CANDIDATES) return undefined;
  const users = await em.find(ScimUser, { id: { $in: rows.map((r) => r.id) } });
  const eligible: HolderRef[] = [];
  for (const user of users) {
    const tenant = await em.findOne(Tenant, { id: user.tenantId });
    if (!tenant) continue;
    // A tenant provisions one configuration, so a user is eligible for at most one of them.
    for (const configurationId of configurationIds) {
      const credential = await holderCredential(em, validator, tenant, user, configurationId);
      if (!('refused' in credential))
        eligible.push({ tenantId: tenant.id, userId: user.id, email: credential.email, configurationId });
    }
  }
  return eligible.length === 1 ? eligible[0] : undefined;
}
