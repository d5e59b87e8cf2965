import { createHash, randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { canonicalJson } from '../audit/canonical-json.js';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import type { DcqlQuery } from '../oid4vp/verification/index.js';
import { PresentationError, verifyVpToken } from '../oid4vp/verification/index.js';
import { PresentationSession, statusOf } from './presentation-session.entity.js';
import { type AuthorizationResponseForm, readAuthorizationResponse } from './read-authorization-response.js';
import type { VerifierServices } from './verifier-services.js';

export const RESPONSE_CODE_TTL_SECONDS = 300;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The response endpoint's work. Responses that cannot belong to a live session (garbage, unknown
 * state, a finished or expired session, a vp_token seen before) are refused and change nothing. A
 * well-formed response is verified once: the session becomes verified or failed for good, with the
 * claims or a reason, and watchers are told. A verified session with a redirect_uri gets a fresh
 * single-use code.
 */
export async function completePresentation(
  em: EntityManager,
  s: VerifierServices,
  form: AuthorizationResponseForm,
) {
  const { session, vpToken, encrypted, walletError } = await readAuthorizationResponse(em, s, form);
  const status = statusOf(session);
  if (status === 'expired') throw invalidRequest('the session has expired');
  if (status !== 'pending') throw invalidRequest('the session already has its response');
  // OID4VP 1.0 section 8.3.1: a wallet that cannot encrypt may send its error response in the
  // clear, so a direct_post.jwt session takes a plain error; only a vp_token must come encrypted.
  if (walletError) return recordWalletError(em, s, session.id, walletError);
  if (session.responseMode === 'direct_post.jwt' && !encrypted)
    throw invalidRequest('this session requires an encrypted response (direct_post.jwt)');
  if (vpToken === null || typeof vpToken !== 'object' || Array.isArray(vpToken))
    throw invalidRequest('vp_token must be a JSON object');
  const tokenHash = sha256(canonicalJson(vpToken));
  const seen = await em.execute('select 1 from presented_token where token_hash = ?', [tokenHash]);
  if (seen.length) throw invalidRequest('this vp_token was presented before');

  const { clientId } = await s.identity();
  let outcome: { claims: Record<string, unknown>; type: string | null } | { reason: string; message: string };
  try {
    const verified = await verifyVpToken(vpToken, session.dcqlQuery as unknown as DcqlQuery, {
      nonce: session.nonce,
      clientId,
      trustedIssuers: s.trustedIssuers(em, session.tenantId),
      fetchStatusList: s.fetchStatusList,
    });
    const [first] = verified.credentials;
    outcome = { claims: first?.claims ?? {}, type: session.credentialConfigurationId ?? first?.vct ?? null };
  } catch (e) {
    if (!(e instanceof PresentationError)) throw e;
    outcome = { reason: e.code, message: e.message };
  }

  const code = 'claims' in outcome && session.redirectUri ? randomBytes(32).toString('base64url') : undefined;
  const final = await em.transactional(async (tx) => {
    const row = await tx.findOneOrFail(
      PresentationSession,
      { id: session.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (row.status !== 'pending') throw invalidRequest('the session already has its response');
    await tx.execute(
      'insert into presented_token (token_hash, session_id, created_at) values (?, ?, now())',
      [tokenHash, row.id],
    );
    row.completedAt = new Date();
    if ('claims' in outcome) {
      row.status = 'verified';
      row.result = { claims: outcome.claims, credential_type: outcome.type };
      if (code) {
        row.responseCodeHash = sha256(code);
        row.responseCodeExpiresAt = new Date(Date.now() + RESPONSE_CODE_TTL_SECONDS * 1000);
      }
    } else {
      row.status = 'failed';
      row.failureReason = outcome.reason;
    }
    await tx.flush();
    await appendAuditEvent(tx, {
      tenantId: row.tenantId,
      actor: 'wallet',
      action: row.status === 'verified' ? 'verification.verified' : 'verification.failed',
      subject: row.id,
      details: 'reason' in outcome ? { reason: outcome.reason } : { credential_type: outcome.type },
    });
    return row;
  });
  await s.events.publish({ session_id: final.id, status: final.status }).catch(() => undefined);
  if ('reason' in outcome)
    throw invalidRequest(`presentation rejected (${outcome.reason}): ${outcome.message}`);
  if (!code || !final.redirectUri) return {};
  const target = new URL(final.redirectUri);
  target.searchParams.set('code', code);
  target.searchParams.set('state', final.id);
  return { redirect_uri: target.toString() };
}

/** OID4VP section 8.5: the wallet declined (e.g. access_denied); the session fails with that reason. */
async function recordWalletError(em: EntityManager, s: VerifierServices, sessionId: string, error: string) {
  const row = await em.transactional(async (tx) => {
    const session = await tx.findOneOrFail(
      PresentationSession,
      { id: sessionId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (session.status !== 'pending') throw invalidRequest('the session already has its response');
    session.status = 'failed';
    session.failureReason = `wallet_${error}`;
    session.completedAt = new Date();
    await tx.flush();
    await appendAuditEvent(tx, {
      tenantId: session.tenantId,
      actor: 'wallet',
      action: 'verification.failed',
      subject: session.id,
      details: { reason: session.failureReason },
    });
    return session;
  });
  await s.events.publish({ session_id: row.id, status: row.status }).catch(() => undefined);
  return {};
}
