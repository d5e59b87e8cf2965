import type { EntityManager } from '@mikro-orm/postgresql';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { PresentationSession } from './presentation-session.entity.js';
import type { SessionEvents } from './session-events.js';
import { sessionEvent, verifiedDetails } from './session-result.js';

/** A session whose result the redemption released: now verified. */
export type ReleasedSession = Pick<
  PresentationSession,
  'id' | 'tenantId' | 'result' | 'profile' | 'completedAt'
>;

/**
 * What proves that the redirect came back to the session that asked, beside the response code: the
 * integrator's session_binding (its hash, within its tenant), or for a sign-in the session id, once
 * the caller has checked the browser's login cookie.
 */
export type RedirectProof = { tenantId: string; bindingHash: string } | { sessionId: string };

interface Row {
  id: string;
  tenant_id: string;
  result: PresentationSession['result'];
  profile: PresentationSession['profile'];
  completed_at: Date | string | null;
  approval_id: string | null;
}

/**
 * Releases the result of a same-device answer (HAIP 1.0 redirects, OID4VP 1.0 section 14.3): one
 * conditional UPDATE turns the session awaiting its redirect into a verified one, only with its
 * fresh response code and the proof, and spends the code; the `verification.verified` audit event
 * (and its webhook) is written in the caller's transaction. Anything else (wrong or missing proof,
 * a spent or late code) matches no row and changes nothing. Undefined when nothing was released.
 */
export async function releaseAwaitedResult(
  tx: EntityManager,
  codeHash: string,
  proof: RedirectProof,
  actor: string,
): Promise<ReleasedSession | undefined> {
  const [whose, values] =
    'sessionId' in proof
      ? ['id = ?', [proof.sessionId]]
      : ['tenant_id = ? and session_binding_hash = ?', [proof.tenantId, proof.bindingHash]];
  const [row] = await tx.execute<Row[]>(
    `update presentation_session set status = 'verified', response_code_hash = null
     where response_code_hash = ? and status = 'awaiting_redirect' and response_code_expires_at > now()
       and ${whose}
     returning id, tenant_id, result, profile, completed_at, approval_id`,
    [codeHash, ...values],
  );
  if (!row) return undefined;
  const released: ReleasedSession = {
    id: row.id,
    tenantId: row.tenant_id,
    result: row.result,
    profile: row.profile,
    completedAt: row.completed_at ? new Date(row.completed_at) : null,
  };
  await appendAuditEvent(tx, {
    tenantId: released.tenantId,
    actor,
    action: 'verification.verified',
    subject: released.id,
    details: { ...verifiedDetails(released), ...(row.approval_id ? { approval: row.approval_id } : {}) },
  });
  return released;
}

/** Tells the session's watchers (SSE) it is verified, once the release has committed. */
export const announceRelease = (events: SessionEvents, released: ReleasedSession) =>
  events.publish(sessionEvent(released, 'verified')).catch(() => undefined);
