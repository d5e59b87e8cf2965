import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { hashSecret } from '../tenants/token-secret.js';
import {
  deniedDescription,
  isSameBrowser,
  responseCodeProblem,
  WRONG_RESPONSE_CODE,
} from '../verification/browser-presentation.js';
import { findSession } from '../verification/ephemeral-sessions.js';
import { statusOf } from '../verification/presentation-session.entity.js';
import {
  announceRelease,
  type ReleasedSession,
  releaseAwaitedResult,
} from '../verification/release-awaited-result.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { AuthorizationError } from './authorization-request.js';
import { endDeniedSignIn, readPendingSignIn } from './pending-sign-in.js';

export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

const alreadyComplete = () => new AuthorizationError('invalid_request', 'this sign-in is already complete');
const wrongResponseCode = () => new AuthorizationError('invalid_request', WRONG_RESPONSE_CODE);

/**
 * GET /oauth2/authorize/complete: ends a login whose presentation session has an outcome. Only the
 * browser that started it may end it (its cookie), and only once. A verified session yields a
 * single-use code (stored hashed, valid 60 s) in a new `oidc_authorization` row that binds it to the
 * client, redirect_uri, nonce and PKCE challenge: the first row and audit event a sign-in writes,
 * inserted only if absent, so a second completion is refused. A same-device answer awaiting its
 * redirect is released here, in the same transaction: the redirect's response code with the cookie
 * is what proves it came back to the browser that asked (HAIP 1.0). A failed or expired one sends
 * `access_denied` back to the client and leaves nothing behind.
 */
export async function issueAuthorizationCode(
  em: EntityManager,
  verifier: Pick<VerifierServices, 'ephemeral' | 'events'>,
  sessionId: string,
  browserSecret: string | undefined,
  /** From the wallet's same-device redirect (OID4VP 1.0 section 8.2). */
  responseCode?: string,
): Promise<{ redirectUri: string; params: Record<string, string | undefined> }> {
  const { ephemeral } = verifier;
  const pending = sessionId ? await readPendingSignIn(ephemeral.store, sessionId) : undefined;
  const session = pending ? (await findSession(em, ephemeral, { id: sessionId }))?.session : undefined;
  if (!pending || !session) throw new AuthorizationError('invalid_request', 'no such sign-in');
  if (!isSameBrowser(browserSecret, pending.browserBindingHash))
    throw new AuthorizationError('invalid_request', 'this sign-in was started in another browser');
  const state = pending.state ?? undefined;
  const status = statusOf(session);
  if (status === 'pending')
    throw new AuthorizationError(
      'invalid_request',
      'the wallet has not answered yet; wait on the sign-in page',
    );
  if (status !== 'verified' && status !== 'awaiting_redirect') {
    if (!(await endDeniedSignIn(ephemeral.store, sessionId))) throw alreadyComplete();
    return {
      redirectUri: pending.redirectUri,
      params: { error: 'access_denied', error_description: deniedDescription(session, status), state },
    };
  }

  const problem = responseCodeProblem(session, responseCode);
  if (problem) throw new AuthorizationError('invalid_request', problem);
  const code = randomBytes(32).toString('base64url');
  let released: ReleasedSession | undefined;
  const claimed = await em
    .transactional(async (tx) => {
      if (status === 'awaiting_redirect') {
        const proof = { sessionId };
        const actor = `oidc:${pending.clientId}`;
        released = await releaseAwaitedResult(tx, hashSecret(responseCode ?? ''), proof, actor);
        if (!released) throw wrongResponseCode();
      }
      const rows = await tx.execute(
        `insert into oidc_authorization (session_id, client_id, redirect_uri, state, nonce, code_challenge,
         browser_binding_hash, created_at, completed_at, auth_time, code_hash, code_expires_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, now(), ?, ?, ?)
       on conflict (session_id) do nothing returning session_id`,
        [
          sessionId,
          pending.clientId,
          pending.redirectUri,
          pending.state,
          pending.nonce,
          pending.codeChallenge,
          pending.browserBindingHash,
          new Date(pending.createdAt),
          session.completedAt,
          hashSecret(code),
          new Date(Date.now() + AUTHORIZATION_CODE_TTL_SECONDS * 1000),
        ],
      );
      if (!rows.length) return false;
      await appendAuditEvent(tx, {
        tenantId: session.tenantId,
        actor: `oidc:${pending.clientId}`,
        action: 'oidc.authorized',
        subject: sessionId,
        details: { client_id: pending.clientId, session_status: 'verified' },
      });
      return true;
    })
    .catch((e: { code?: string }) => {
      // The client was deleted while its user signed in.
      if (e.code === '23503') throw new AuthorizationError('invalid_client', 'the client no longer exists');
      throw e;
    });
  if (!claimed) throw alreadyComplete();
  if (released) await announceRelease(verifier.events, released);
  return { redirectUri: pending.redirectUri, params: { code, state } };
}
