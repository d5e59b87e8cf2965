import type { EntityManager } from '@mikro-orm/postgresql';
import type { HolderRef } from '../../directory/find-holder-by-email.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';
import { findOpenOffer } from '../../issuance/find-open-offer.js';
import { newTxCode } from '../../issuance/offer-codes.js';
import { queueMail } from '../../mail/queue-mail.js';
import { holderSignInPresentationOf } from '../../tenants/holder-sign-in-presentation.js';
import { holderSignInProviderOf } from '../../tenants/holder-sign-in-provider.js';
import { Tenant } from '../../tenants/tenant.entity.js';
import { sameSecret } from '../../tenants/token-secret.js';
import {
  keys,
  newSecret,
  type PendingAuthorization,
  REQUEST_URI_PREFIX,
  readRecord,
  SIGN_IN_TTL_SECONDS,
  sha256,
  takeOnce,
} from './pending-authorization.js';

/** After this many wrong one-time codes the sign-in ends and the wallet is told access_denied. */
export const MAX_ONE_TIME_CODE_ATTEMPTS = 5;

export interface HolderSignIn {
  pending: PendingAuthorization;
  /** The address the code went to; absent until a wallet-initiated holder types theirs. */
  email?: string;
  oneTimeCodeHash?: string;
  expiresAt: string;
  /** Wallet-initiated: the SCIM user the address selected; none means no code was sent (none matches). */
  holder?: HolderRef;
  /** The holder signs in at the tenant's own OpenID provider (provider-sign-in.ts), not with a code. */
  external?: true;
  /** The holder presents a credential whose claims match their record (presentation-sign-in.ts). */
  presentation?: true;
}

/** Why a sign-in cannot go on: shown as a page, or sent to the wallet when `redirect` is set. */
export class SignInError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly redirect?: PendingAuthorization,
  ) {
    super(description);
  }
}

/**
 * Mails a fresh one-time code for the tenant's holder and returns its hash, salted with the session
 * (so the store never holds the code itself). The code is in the mail only, never logged.
 */
export async function mailOneTimeCode(em: EntityManager, tenantId: string, to: string, session: string) {
  const oneTimeCode = newTxCode();
  const tenant = await em.findOne(Tenant, { id: tenantId });
  const name = tenant?.mandator?.organization ?? tenant?.name ?? tenantId;
  await em.transactional((tx) =>
    queueMail(tx, { tenantId, template: 'tx-code', to, params: { organization: name, txCode: oneTimeCode } }),
  );
  return sha256(`${session}:${oneTimeCode}`);
}

/**
 * GET /oauth2/authorize with a request_uri: the pushed request is taken (one use). For an offer, the
 * offer is checked again and a 6-digit one-time code mailed to the issuance's address (or, when
 * the tenant asks for a presentation, its page is shown; when it has its own OpenID provider, the
 * holder is sent there instead); a
 * wallet-initiated request first asks the holder for their address (holder-email.ts). The session
 * id goes to the page's form.
 */
export async function startHolderSignIn(
  em: EntityManager,
  store: TtlStore,
  clientId: string,
  requestUri: string,
): Promise<{ session: string; signIn: HolderSignIn }> {
  const pending = requestUri.startsWith(REQUEST_URI_PREFIX)
    ? await takeOnce<PendingAuthorization>(
        store,
        keys.pushed(requestUri.slice(REQUEST_URI_PREFIX.length)),
        SIGN_IN_TTL_SECONDS,
      )
    : undefined;
  if (!pending) throw new SignInError('invalid_request_uri', 'the request_uri is unknown, used or expired');
  if (pending.clientId !== clientId)
    throw new SignInError('invalid_request', 'client_id is not the one of the pushed request');
  const session = newSecret();
  const signIn: HolderSignIn = {
    pending,
    expiresAt: new Date(Date.now() + SIGN_IN_TTL_SECONDS * 1000).toISOString(),
  };
  if (pending.issuanceId) {
    const issuance = await findOpenOffer(em, pending.issuanceId);
    if (!issuance?.email)
      throw new SignInError('access_denied', 'the offer was used or has expired', pending);
    signIn.email = issuance.email;
    // A presentation rule comes first: the tenant asked for it over its provider and the mailed code.
    if (await holderSignInPresentationOf(em, issuance.tenantId)) signIn.presentation = true;
    else if (await holderSignInProviderOf(em, issuance.tenantId)) signIn.external = true;
    else signIn.oneTimeCodeHash = await mailOneTimeCode(em, issuance.tenantId, issuance.email, session);
  }
  await store.set(keys.signIn(session), JSON.stringify(signIn), SIGN_IN_TTL_SECONDS);
  return { session, signIn };
}

/**
 * The holder's one-time code. Each attempt first claims its number (setIfAbsent, so parallel
 * guesses on several nodes still count one by one); the fifth wrong one ends the sign-in (and each
 * wrong one also counts against the offer: countWrongOneTimeCode). The right
 * one ends it too, once (finishSignIn then gives the wallet its authorization code).
 */
export async function completeHolderSignIn(
  store: TtlStore,
  session: string,
  oneTimeCode: string,
): Promise<{ signedIn: HolderSignIn } | { wrong: HolderSignIn; attemptsLeft: number }> {
  const key = keys.signIn(session);
  const signIn = await readRecord<HolderSignIn>(store, key);
  if (!signIn) throw new SignInError('invalid_request', 'this sign-in is unknown, finished or expired');
  if (!signIn.oneTimeCodeHash) throw new SignInError('invalid_request', 'no code was asked for yet');
  let attempt = 0;
  for (let n = 1; n <= MAX_ONE_TIME_CODE_ATTEMPTS && !attempt; n++)
    if (await store.setIfAbsent(`${key}:attempt:${n}`, '1', SIGN_IN_TTL_SECONDS)) attempt = n;
  if (!attempt) {
    await store.delete(key);
    throw new SignInError('access_denied', 'too many wrong one-time codes', signIn.pending);
  }
  if (!sameSecret(sha256(`${session}:${oneTimeCode}`), signIn.oneTimeCodeHash)) {
    // At none left the sign-in is over; the caller counts the attempt against the offer too.
    if (attempt >= MAX_ONE_TIME_CODE_ATTEMPTS) await store.delete(key);
    return { wrong: signIn, attemptsLeft: MAX_ONE_TIME_CODE_ATTEMPTS - attempt };
  }
  const taken = await takeOnce<HolderSignIn>(store, key, SIGN_IN_TTL_SECONDS);
  if (!taken) throw new SignInError('invalid_request', 'this sign-in is already finished');
  return { signedIn: taken };
}
