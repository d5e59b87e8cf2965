import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { secretMatches } from '../tenants/token-secret.js';
import { PresentationSession, statusOf } from '../verification/presentation-session.entity.js';
import { AuthorizationError } from './authorization-request.js';
import { OidcAuthorization } from './oidc-authorization.entity.js';

export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * GET /oauth2/authorize/complete: ends a login whose presentation session has an outcome. Only the
 * browser that started it may end it (its cookie), and only once. A verified session yields a
 * single-use code (stored hashed, valid 60 s) bound by its row to the client, redirect_uri, nonce and
 * PKCE challenge; a failed or expired one sends `access_denied` back to the client.
 */
export async function issueAuthorizationCode(
  em: EntityManager,
  sessionId: string,
  browserSecret: string | undefined,
): Promise<{ redirectUri: string; params: Record<string, string | undefined> }> {
  const pending = sessionId ? await em.findOne(OidcAuthorization, { sessionId }) : null;
  const session = pending ? await em.findOne(PresentationSession, { id: sessionId }) : null;
  if (!pending || !session) throw new AuthorizationError('invalid_request', 'no such sign-in');
  if (!browserSecret || !secretMatches(browserSecret, pending.browserBindingHash))
    throw new AuthorizationError('invalid_request', 'this sign-in was started in another browser');
  if (pending.completedAt)
    throw new AuthorizationError('invalid_request', 'this sign-in is already complete');
  const back = { redirectUri: pending.redirectUri, state: pending.state ?? undefined };
  const status = statusOf(session);
  if (status === 'pending')
    throw new AuthorizationError(
      'invalid_request',
      'the wallet has not answered yet; wait on the sign-in page',
    );

  const code = status === 'verified' ? randomBytes(32).toString('base64url') : undefined;
  const claimed = await em.transactional(async (tx) => {
    const rows = await tx.execute<{ session_id: string }[]>(
      `update oidc_authorization
       set completed_at = now(), auth_time = ?, code_hash = ?, code_expires_at = ?
       where session_id = ? and completed_at is null
       returning session_id`,
      [
        session.completedAt,
        code ? sha256Hex(code) : null,
        code ? new Date(Date.now() + AUTHORIZATION_CODE_TTL_SECONDS * 1000) : null,
        sessionId,
      ],
    );
    if (!rows.length) return false;
    await appendAuditEvent(tx, {
      tenantId: session.tenantId,
      actor: `oidc:${pending.clientId}`,
      action: code ? 'oidc.authorized' : 'oidc.denied',
      subject: sessionId,
      details: { client_id: pending.clientId, session_status: status },
    });
    return true;
  });
  if (!claimed) throw new AuthorizationError('invalid_request', 'this sign-in is already complete');
  if (code) return { redirectUri: back.redirectUri, params: { code, state: back.state } };
  return {
    redirectUri: back.redirectUri,
    params: {
      error: 'access_denied',
      error_description:
        status === 'expired' ? 'the sign-in request expired' : 'the presented credential was not accepted',
      state: back.state,
    },
  };
}
