import type { EntityManager } from '@mikro-orm/postgresql';
import type { PayloadValidator } from '../../credential-configurations/payload-validator.js';
import { findHolderByEmail } from '../../directory/find-holder-by-email.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';
import { holderSignInPresentationOf } from '../../tenants/holder-sign-in-presentation.js';
import { holderSignInProviderOf } from '../../tenants/holder-sign-in-provider.js';
import { mayMailCode } from './address-limits.js';
import { type HolderSignIn, mailOneTimeCode, SignInError } from './holder-sign-in.js';
import {
  keys,
  newSecret,
  readRecord,
  requestedOf,
  SIGN_IN_TTL_SECONDS,
  sha256,
} from './pending-authorization.js';

// RFC 5321 caps a path at 256 octets; one @, something on both sides, no spaces or markup.
const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}$/;

/** The address does not look like one: the page asks again, nothing is looked up or stored. */
export class InvalidEmail extends Error {
  constructor(readonly signIn: HolderSignIn) {
    super('This does not look like an e-mail address.');
  }
}

/**
 * Wallet-initiated sign-in, second step: the holder's address. When it selects exactly one SCIM user
 * who may receive the requested credential (findHolderByEmail) and the address has codes left for
 * this window, a one-time code is mailed to the user's provisioned address. Otherwise nothing is
 * mailed, but the sign-in goes on exactly the same way with a code no one knows, so that the page,
 * its wording and what follows never tell whether an address is known. Given once per sign-in.
 */
export async function submitHolderEmail(
  em: EntityManager,
  validator: PayloadValidator,
  store: TtlStore,
  session: string,
  typed: string,
): Promise<HolderSignIn> {
  const key = keys.signIn(session);
  const signIn = await readRecord<HolderSignIn>(store, key);
  if (!signIn) throw new SignInError('invalid_request', 'this sign-in is unknown, finished or expired');
  if (signIn.pending.issuanceId) throw new SignInError('invalid_request', 'this sign-in is for an offer');
  const email = typed.trim();
  if (!EMAIL.test(email)) throw new InvalidEmail(signIn);
  // One address per sign-in, also against two parallel posts.
  if (!(await store.setIfAbsent(`${key}:email`, '1', SIGN_IN_TTL_SECONDS)))
    throw new SignInError('invalid_request', 'an address was already given for this sign-in');
  const holder = await findHolderByEmail(em, validator, email, requestedOf(signIn.pending));
  // The user's tenant signs its holders in at its own provider: there, not by a code. (That the page
  // then leaves for the provider does tell that the address is known; the provider asks for more.)
  // Or by presenting a credential that matches the user's record (presentation-sign-in.ts): that the
  // page then asks for it tells as much, and only the user's own credential gets them further.
  const presentation = holder && (await holderSignInPresentationOf(em, holder.tenantId));
  const external = holder && !presentation && (await holderSignInProviderOf(em, holder.tenantId));
  const mailed = holder && !presentation && !external && (await mayMailCode(store, holder.email));
  const updated: HolderSignIn = {
    ...signIn,
    email,
    // No holder, or no more codes for the address: a hash of a code that was never sent.
    oneTimeCodeHash: mailed
      ? await mailOneTimeCode(em, holder.tenantId, holder.email, session)
      : sha256(newSecret()),
    ...(mailed || external || presentation ? { holder } : {}),
    ...(external ? { external: true as const } : {}),
    ...(presentation ? { presentation: true as const } : {}),
  };
  const ttl = Math.max(1, Math.ceil((Date.parse(signIn.expiresAt) - Date.now()) / 1000));
  await store.set(key, JSON.stringify(updated), ttl);
  return updated;
}
