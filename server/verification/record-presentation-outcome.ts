import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuditEntry, appendAuditEvent, statementAudit } from '../audit/audit-log.js';
import { conflict } from '../domain-errors.js';
import { Params } from '../persistence/sql.js';
import { hashSecret } from '../tenants/token-secret.js';
import type { CredentialTrust } from './issuer-trust.js';
import { PresentationSession } from './presentation-session.entity.js';
import { type SessionResult, trustView, verifiedDetails } from './session-result.js';
import type { VerifierServices } from './verifier-services.js';

export const RESPONSE_CODE_TTL_SECONDS = 300;

/** One verified credential, as the outcome names it. */
export interface PresentedCredential {
  /** The DCQL credential query it answered. */
  id: string;
  format: string;
  type: string | null;
  trust: CredentialTrust;
}

export type Outcome =
  | {
      claims: Record<string, unknown>;
      type: string | null;
      trust?: CredentialTrust;
      credentials?: PresentedCredential[];
      /** The first credential's `status.status_list`, when it has one. */
      statusReference?: { idx: number; uri: string };
      /** An approval's signed receipt (server/approvals). */
      receipt?: string;
    }
  | { reason: string; message: string };

export interface Answer {
  session: PresentationSession;
  ephemeral: boolean;
  outcome: Outcome;
  /** Hash of the vp_token; absent when the wallet declined. */
  tokenHash?: string;
  /**
   * The response code of a verified same-device answer: the session then awaits the redirect, and
   * its result is released only when the code is redeemed (release-awaited-result.ts).
   */
  code?: string;
}

// The response endpoint's renderer makes these OAuth invalid_request errors.
const alreadyAnswered = () => conflict('the session already has its response', 'session-answered');
const replayed = () => conflict('this vp_token was presented before', 'vp-token-replayed');

/**
 * Records the one answer a session gets, with one statement and no transaction: a conditional
 * UPDATE of the still pending session (to verified, failed, or awaiting_redirect for a verified
 * answer with a response code), the vp_token's row in `presented_token` and the audit event, each
 * only if the session was pending. Of two answers racing for one session the second updates
 * nothing and so writes nothing; a vp_token presented before fails the statement on the token's
 * primary key, so nothing is written either and the session stays pending. A session of an
 * anonymous sign-in gets a row only when its answer is verified (released or awaiting its
 * redirect); a failure stays in the TTL store.
 */
export async function recordOutcome(em: EntityManager, s: VerifierServices, a: Answer) {
  if (a.ephemeral) return recordEphemeralOutcome(em, s, a);
  const row = { ...a.session, completedAt: new Date() };
  applyOutcome(row, a);
  const audit = statementAudit([auditEntry(row, a.outcome)]);
  const params = new Params();
  const p = (value: unknown) => params.add(value);
  const text = `with answered as (
      update presentation_session set status = ${p(row.status)}, completed_at = ${p(row.completedAt)}::timestamptz,
        result = ${p(row.result && JSON.stringify(row.result))}::jsonb, failure_reason = ${p(row.failureReason)},
        failure_description = ${p(row.failureDescription)},
        response_code_hash = ${p(row.responseCodeHash)},
        response_code_expires_at = ${p(row.responseCodeExpiresAt)}::timestamptz
      where id = ${p(row.id)} and status = 'pending'
      returning id
    )${
      a.tokenHash
        ? `, presented as (
      insert into presented_token (token_hash, session_id, created_at)
      select ${p(a.tokenHash)}, id, now() from answered
    )`
        : ''
    }, ${audit.ctes(params, 'answered')}
    select count(*)::int as answered from answered`;
  let answered: number;
  try {
    [{ answered } = { answered: 0 }] = await s.sql.query<{ answered: number }>(text, params.values);
  } catch (e) {
    if ((e as { constraint?: string }).constraint === 'presented_token_pkey') throw replayed();
    throw e;
  }
  if (!answered) throw alreadyAnswered();
  await audit.committed(em);
  return row;
}

async function recordEphemeralOutcome(em: EntityManager, s: VerifierServices, a: Answer) {
  const { session, outcome } = a;
  const row = { ...session, completedAt: new Date() };
  applyOutcome(row, a);
  if (!(await s.ephemeral.settle(session, row.status, row.failureReason ?? null))) throw alreadyAnswered();
  if (row.status === 'failed') return row;
  try {
    return await em.transactional(async (tx) => {
      if (a.tokenHash && !(await claimToken(tx, a.tokenHash, session.id))) throw replayed();
      const inserted = await tx
        .createQueryBuilder(PresentationSession)
        .insert(row)
        .onConflict('id')
        .ignore()
        .execute('run');
      if (!inserted.affectedRows) throw alreadyAnswered();
      await audit(tx, row, outcome);
      return row;
    });
  } catch (e) {
    await s.ephemeral.unsettle(session.id).catch(() => undefined);
    throw e;
  }
}

async function claimToken(tx: EntityManager, tokenHash: string, sessionId: string): Promise<boolean> {
  const rows = await tx.execute(
    `insert into presented_token (token_hash, session_id, created_at) values (?, ?, now())
     on conflict (token_hash) do nothing returning token_hash`,
    [tokenHash, sessionId],
  );
  return rows.length > 0;
}

function applyOutcome(row: PresentationSession, a: Answer) {
  if ('claims' in a.outcome) {
    row.status = a.code ? 'awaiting_redirect' : 'verified';
    const result: SessionResult = {
      claims: a.outcome.claims,
      credential_type: a.outcome.type,
      ...(a.outcome.trust ? { trust: trustView(a.outcome.trust) } : {}),
      ...(a.outcome.credentials
        ? {
            credentials: a.outcome.credentials.map((c) => ({
              id: c.id,
              format: c.format,
              credential_type: c.type,
              trust: trustView(c.trust),
            })),
          }
        : {}),
      ...(a.outcome.receipt ? { receipt: a.outcome.receipt } : {}),
      ...(a.outcome.statusReference ? { status: { status_list: a.outcome.statusReference } } : {}),
    };
    row.result = result as Record<string, unknown>;
    if (a.code) {
      row.responseCodeHash = hashSecret(a.code);
      row.responseCodeExpiresAt = redirectDeadline(row);
    }
  } else {
    row.status = 'failed';
    row.failureReason = a.outcome.reason;
    row.failureDescription = a.outcome.message;
  }
}

/**
 * Until when a same-device answer's response code may be redeemed: while the session lives, and at
 * least RESPONSE_CODE_TTL_SECONDS after the answer, so that an answer just before the session's
 * expiry still has time for its redirect. Past it, the session has failed (redirect_not_followed).
 */
const redirectDeadline = (row: PresentationSession) =>
  new Date(Math.max(row.expiresAt.getTime(), Date.now() + RESPONSE_CODE_TTL_SECONDS * 1000));

const audit = (tx: EntityManager, row: PresentationSession, outcome: Outcome) =>
  appendAuditEvent(tx, auditEntry(row, outcome));

// `verification.verified` (and its webhook) waits for the release of an answer awaiting its redirect.
const actionOf = (status: PresentationSession['status']) =>
  status === 'failed'
    ? 'verification.failed'
    : status === 'awaiting_redirect'
      ? 'verification.awaiting_redirect'
      : 'verification.verified';

const auditEntry = (row: PresentationSession, outcome: Outcome): AuditEntry => ({
  tenantId: row.tenantId,
  actor: 'wallet',
  action: actionOf(row.status),
  subject: row.id,
  details: {
    ...('reason' in outcome ? { reason: outcome.reason } : verifiedDetails(row)),
    ...(row.approvalId ? { approval: row.approvalId } : {}),
  },
});
