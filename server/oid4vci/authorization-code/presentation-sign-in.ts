import type { EntityManager } from '@mikro-orm/postgresql';
import type { ClaimMatch } from '../../../contract/admin/holder-sign-in-presentation.js';
import { DomainError } from '../../domain-errors.js';
import { type TtlStore, TtlStoreUnavailable } from '../../ephemeral/ttl-store.js';
import { holderSignInPresentationOf, signInQueryOf } from '../../tenants/holder-sign-in-presentation.js';
import {
  type BrowserPresentation,
  startBrowserPresentation,
} from '../../verification/browser-presentation.js';
import { GRACE_SECONDS } from '../../verification/ephemeral-sessions.js';
import type { VerifierServices } from '../../verification/verifier-services.js';
import { type HolderSignIn, SignInError } from './holder-sign-in.js';
import { keys, readRecord, SIGN_IN_TTL_SECONDS, takeOnce } from './pending-authorization.js';
import { tenantOfSignIn } from './provider-sign-in.js';

/** Where the page, and a same-device wallet's redirect, complete a sign-in by presentation. */
export const PRESENTATION_PATH = '/oauth2/authorize/issuance/presentation';

/** A sign-in waiting for its presentation, kept under the presentation session's id until completed. */
export interface PresentationSignIn {
  signIn: HolderSignIn;
  /** SHA-256 of the secret in the cookie of the browser that opened the page. */
  browserBindingHash: string;
  /** The tenant's rule when the page was shown: the one the answer is matched by (and audited with). */
  match: ClaimMatch[];
}

export const presentationKey = (sessionId: string) => `vci-sign-in-presentation:${sessionId}`;

export const readPresentationSignIn = (store: TtlStore, sessionId: string) =>
  readRecord<PresentationSignIn>(store, presentationKey(sessionId));

/** Takes it once: of two completions racing (two tabs, a replayed redirect) only one goes on. */
export const takePresentationSignIn = (store: TtlStore, sessionId: string) =>
  takeOnce<PresentationSignIn>(store, presentationKey(sessionId), SIGN_IN_TTL_SECONDS);

/**
 * The holder is to sign in by presenting a credential: a presentation session of the tenant's
 * verifier for the tenant's credential query (its trust decides which issuers count), answered by
 * QR code, same-device link or the browser's own wallet, and bound to this browser. The form's
 * sign-in record is taken (no code can finish it any more) and kept under the session's id instead.
 * A rule removed meanwhile, or one the tenant's verifier cannot ask (its HAIP profile without
 * trust anchors), ends the sign-in at the wallet's redirect; a store that is down, for a moment.
 */
export async function startPresentationSignIn(
  em: EntityManager,
  verifier: VerifierServices,
  session: string,
  signIn: HolderSignIn,
): Promise<BrowserPresentation> {
  const tenantId = tenantOfSignIn(signIn);
  const rule = tenantId ? await holderSignInPresentationOf(em, tenantId) : null;
  if (!tenantId || !rule)
    throw new SignInError('access_denied', 'the tenant no longer signs holders in this way', signIn.pending);
  const issuerUrl = verifier.config.issuerUrl;
  const store = verifier.ephemeral.store;
  try {
    await takeOnce(store, keys.signIn(session), SIGN_IN_TTL_SECONDS);
    const started = await startBrowserPresentation(
      em,
      verifier,
      tenantId,
      'wallet',
      { dcql_query: signInQueryOf(rule) as unknown as Record<string, unknown> },
      { origin: new URL(issuerUrl).origin, completeUrl: `${issuerUrl}${PRESENTATION_PATH}` },
    );
    const record: PresentationSignIn = {
      signIn,
      browserBindingHash: started.browserBindingHash,
      match: rule.match,
    };
    const ttl = started.expiresIn + GRACE_SECONDS;
    await store.set(presentationKey(started.sessionId), JSON.stringify(record), ttl);
    return started;
  } catch (e) {
    if (e instanceof DomainError && e.kind === 'invalid')
      throw new SignInError(
        'access_denied',
        `the tenant’s verifier cannot ask for this credential: ${e.message}`,
        signIn.pending,
      );
    if (!(e instanceof TtlStoreUnavailable)) throw e;
    throw new SignInError(
      'temporarily_unavailable',
      'signing in is unavailable for a moment',
      signIn.pending,
    );
  }
}
