import type { Logger } from 'pino';
import { appendAuditEvent } from '../audit/audit-log.js';
import type { Orm } from '../persistence/orm.js';
import { type PresentationSession, REDIRECT_NOT_FOLLOWED } from './presentation-session.entity.js';
import type { SessionEvents } from './session-events.js';
import { sessionEvent } from './session-result.js';

const SWEEP_MS = 10_000;
const BATCH = 500;

type Failed = Pick<PresentationSession, 'id' | 'tenantId' | 'profile' | 'result'>;

/**
 * Ends the same-device answers whose redirect never came back by their deadline (HAIP 1.0: the
 * verifier rejects such a presentation): failed with `redirect_not_followed`, their unreleased
 * claims erased, a `verification.failed` audit event (and presentation.failed webhook) each, in
 * bounded batches that skip rows a redemption holds. Polling says so from the deadline on already
 * (statusOf); this writes it down and tells the watchers. Returns how many ended.
 */
export async function failUnfollowedRedirects(orm: Orm, events: SessionEvents): Promise<number> {
  let total = 0;
  for (;;) {
    const failed = await orm.em.fork().transactional(async (tx) => {
      const rows = await tx.execute<
        { id: string; tenant_id: string; profile: Failed['profile']; approval_id: string | null }[]
      >(
        `update presentation_session set status = 'failed', failure_reason = ?, result = null,
           response_code_hash = null
         where id in (select id from presentation_session
                      where status = 'awaiting_redirect' and response_code_expires_at <= now()
                      limit ? for update skip locked)
         returning id, tenant_id, profile, approval_id`,
        [REDIRECT_NOT_FOLLOWED, BATCH],
      );
      for (const row of rows)
        await appendAuditEvent(tx, {
          tenantId: row.tenant_id,
          actor: 'verifier',
          action: 'verification.failed',
          subject: row.id,
          details: {
            reason: REDIRECT_NOT_FOLLOWED,
            ...(row.approval_id ? { approval: row.approval_id } : {}),
          },
        });
      return rows.map((r): Failed => ({ id: r.id, tenantId: r.tenant_id, profile: r.profile, result: null }));
    });
    for (const s of failed) await events.publish(sessionEvent(s, 'failed')).catch(() => undefined);
    total += failed.length;
    if (failed.length < BATCH) return total;
  }
}

/** Worker nodes look every ten seconds, so that the failure's webhook follows its deadline closely. */
export function scheduleRedirectDeadlines(orm: Orm, events: SessionEvents, logger: Logger): () => void {
  const timer = setInterval(() => {
    failUnfollowedRedirects(orm, events).catch((err) =>
      logger.warn({ err: (err as Error).message }, 'unfollowed redirects not failed'),
    );
  }, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
