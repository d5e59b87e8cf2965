import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../../audit/audit-log.js';
import type { PayloadValidator } from '../../credential-configurations/payload-validator.js';
import { matchPresentedClaims } from '../../directory/match-presented-claims.js';
import { hashSecret } from '../../tenants/token-secret.js';
import {
  deniedDescription,
  isSameBrowser,
  responseCodeProblem,
  WRONG_RESPONSE_CODE,
} from '../../verification/browser-presentation.js';
import { findSession } from '../../verification/ephemeral-sessions.js';
import { statusOf } from '../../verification/presentation-session.entity.js';
import { announceRelease, releaseAwaitedResult } from '../../verification/release-awaited-result.js';
import { resultOf, verifiedDetails } from '../../verification/session-result.js';
import type { VerifierServices } from '../../verification/verifier-services.js';
import { holderRecordOf } from './holder-record.js';
import { type HolderSignIn, SignInError } from './holder-sign-in.js';
import { readPresentationSignIn, takePresentationSignIn } from './presentation-sign-in.js';

const unknown = () => new SignInError('invalid_request', 'this sign-in is unknown, finished or expired');

/**
 * The page (or a same-device wallet's redirect) completes a sign-in by presentation. Only the
 * browser that opened the page may (its cookie), once, and once the wallet has answered; a same-
 * device answer also needs its response_code (HAIP 1.0). A presentation that was refused (an
 * untrusted issuer, a revoked or expired credential, a wrong signature) or never came ends the
 * sign-in with access_denied at the wallet. A verified one is matched with the holder's record by
 * the tenant's rule; the rule and each claim's result (matched, mismatched, missing: never the
 * values) go into the audit log with the presentation session, and the result is released in the
 * same transaction. Only a full match signs the holder in (finishSignIn then gives the code).
 */
export async function completePresentationSignIn(
  em: EntityManager,
  verifier: Pick<VerifierServices, 'ephemeral' | 'events'>,
  validator: PayloadValidator,
  sessionId: string,
  browserSecret: string | undefined,
  responseCode: string | undefined,
): Promise<HolderSignIn> {
  const store = verifier.ephemeral.store;
  const waiting = sessionId ? await readPresentationSignIn(store, sessionId) : undefined;
  const found = waiting ? await findSession(em, verifier.ephemeral, { id: sessionId }) : undefined;
  if (!waiting || !found) throw unknown();
  if (!isSameBrowser(browserSecret, waiting.browserBindingHash))
    throw new SignInError('invalid_request', 'this sign-in was started in another browser');
  const { session } = found;
  const status = statusOf(session);
  if (status === 'pending')
    throw new SignInError('invalid_request', 'the wallet has not answered yet: wait on the sign-in page');
  const { pending } = waiting.signIn;
  if (status !== 'verified' && status !== 'awaiting_redirect') {
    if (!(await takePresentationSignIn(store, sessionId))) throw unknown();
    throw new SignInError('access_denied', deniedDescription(session, status), pending);
  }
  const problem = responseCodeProblem(session, responseCode);
  if (problem) throw new SignInError('invalid_request', problem);
  const taken = await takePresentationSignIn(store, sessionId);
  if (!taken) throw unknown();
  const { signIn, match } = taken;
  const claims = resultOf(session)?.claims ?? {};
  const outcome = matchPresentedClaims(match, claims, await holderRecordOf(em, validator, signIn));
  const subject = pending.issuanceId ?? signIn.holder?.userId ?? session.id;
  const released = await em.transactional(async (tx) => {
    const release =
      status === 'awaiting_redirect'
        ? await releaseAwaitedResult(tx, hashSecret(responseCode ?? ''), { sessionId }, 'wallet')
        : undefined;
    if (status === 'awaiting_redirect' && !release)
      throw new SignInError('invalid_request', WRONG_RESPONSE_CODE);
    await appendAuditEvent(tx, {
      tenantId: session.tenantId,
      actor: 'wallet',
      action: outcome.matched ? 'issuance.holder_sign_in.matched' : 'issuance.holder_sign_in.refused',
      subject,
      details: {
        presentation_session: session.id,
        ...verifiedDetails(session),
        ...(pending.issuanceId ? { offer: pending.issuanceId } : { user: signIn.holder?.userId ?? null }),
        match: outcome.results,
      },
    });
    return release;
  });
  if (released) await announceRelease(verifier.events, released);
  if (!outcome.matched)
    throw new SignInError(
      'access_denied',
      'the presented credential is not the holder’s this credential is for',
      pending,
    );
  return signIn;
}
