import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import { conflict } from '../domain-errors.js';
import { hashSecret } from '../tenants/token-secret.js';
import type { CredentialTrust } from './issuer-trust.js';
import { PresentationSession } from './presentation-session.entity.js';
import { type SessionResult, trustView } from './session-result.js';
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
    }
  | { reason: string; message: string };

export interface Answer {
  session: PresentationSession;
  ephemeral: boolean;
  outcome: Outcome;
  /** Hash of the vp_token; absent when the wallet declined. */
  tokenHash?: string;
  /** A redirect code for the integrator, when the session is verified and has a redirect_uri. */
  code?: string;
}

// The response endpoint's renderer makes these OAuth invalid_request errors.
const alreadyAnswered = () => conflict('the session already has its response', 'session-answered');
const replayed = () => conflict('this vp_token was presented before', 'vp-token-replayed');

/**
 * Records the one answer a session gets. A vp_token is claimed by a conditional insert into
 * `presented_token`, so of many sessions racing with one token exactly one takes it and the others
 * are refused with a 400 that changes nothing (never a key violation). A session of an anonymous
 * sign-in gets a row only when it is verified; a failure stays in the TTL store.
 */
export async function recordOutcome(em: EntityManager, s: VerifierServices, a: Answer) {
  if (a.ephemeral) return recordEphemeralOutcome(em, s, a);
  return em.transactional(async (tx) => {
    if (a.tokenHash && !(await claimToken(tx, a.tokenHash, a.session.id))) throw replayed();
    const row = { ...a.session, completedAt: new Date() };
    applyOutcome(row, a);
    // One conditional UPDATE, not a locked read and a write: of two answers racing for one session
    // the second updates nothing, and its rollback gives its vp_token back.
    const updated = await tx.nativeUpdate(
      PresentationSession,
      { id: row.id, status: 'pending' },
      {
        status: row.status,
        completedAt: row.completedAt,
        result: row.result,
        failureReason: row.failureReason,
        responseCodeHash: row.responseCodeHash,
        responseCodeExpiresAt: row.responseCodeExpiresAt,
      },
    );
    if (!updated) throw alreadyAnswered();
    await audit(tx, row, a.outcome);
    return row;
  });
}

async function recordEphemeralOutcome(em: EntityManager, s: VerifierServices, a: Answer) {
  const { session, outcome } = a;
  const verified = 'claims' in outcome;
  const failureReason = verified ? null : outcome.reason;
  if (!(await s.ephemeral.settle(session, verified ? 'verified' : 'failed', failureReason)))
    throw alreadyAnswered();
  if (!verified) return { ...session, status: 'failed' as const, failureReason, completedAt: new Date() };
  try {
    return await em.transactional(async (tx) => {
      if (a.tokenHash && !(await claimToken(tx, a.tokenHash, session.id))) throw replayed();
      const row = { ...session, completedAt: new Date() };
      applyOutcome(row, a);
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
    row.status = 'verified';
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
    };
    row.result = result as Record<string, unknown>;
    if (a.code) {
      row.responseCodeHash = hashSecret(a.code);
      row.responseCodeExpiresAt = new Date(Date.now() + RESPONSE_CODE_TTL_SECONDS * 1000);
    }
  } else {
    row.status = 'failed';
    row.failureReason = a.outcome.reason;
  }
}

const audit = (tx: EntityManager, row: PresentationSession, outcome: Outcome) =>
  appendAuditEvent(tx, {
    tenantId: row.tenantId,
    actor: 'wallet',
    action: row.status === 'verified' ? 'verification.verified' : 'verification.failed',
    subject: row.id,
    details:
      'reason' in outcome
        ? { reason: outcome.reason }
        : {
            credential_type: outcome.type,
            ...(outcome.trust ? { trust: trustView(outcome.trust) } : {}),
            ...(row.profile ? { profile: row.profile } : {}),
          },
  });
