import type { EntityManager } from '@mikro-orm/postgresql';
import type { PayloadValidator } from '../../credential-configurations/payload-validator.js';
import { holderRefusal } from '../../directory/holder-credential.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';
import { type HolderSignIn, SignInError } from './holder-sign-in.js';
import {
  AUTHORIZATION_CODE_TTL_SECONDS,
  ISSUANCE_CODE_PREFIX,
  keys,
  newSecret,
  type PendingAuthorization,
} from './pending-authorization.js';

/**
 * The holder proved who they are (the mailed one-time code, or their organisation's OpenID
 * provider): the wallet gets an authorization code for the pushed request. A wallet-initiated
 * request also carries the SCIM user it selected and the configuration that user gets, checked once
 * more now (deactivated, moved to another configuration, missing attributes since the code was
 * mailed): if the user cannot have the credential, the wallet is told access_denied. The reason
 * stays in the server; the redirect says no more than the page did.
 */
export async function finishSignIn(
  em: EntityManager,
  validator: PayloadValidator,
  store: TtlStore,
  signIn: HolderSignIn,
): Promise<{ code: string; pending: PendingAuthorization }> {
  let pending = signIn.pending;
  if (!pending.issuanceId) {
    const { holder } = signIn;
    const refused = holder ? await holderRefusal(em, validator, holder, holder.configurationId) : 'no holder';
    if (refused || !holder)
      throw new SignInError('access_denied', 'no credential can be issued to this sign-in', pending);
    // Of the configurations asked for, the code is for the one this holder's tenant issues them.
    pending = { ...pending, holder, configurationId: holder.configurationId };
  }
  const code = `${ISSUANCE_CODE_PREFIX}${newSecret()}`;
  await store.set(keys.code(code), JSON.stringify(pending), AUTHORIZATION_CODE_TTL_SECONDS);
  return { code, pending };
}
