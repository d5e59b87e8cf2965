import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type {
  ApprovalListStatus,
  PresentationSessionQuery,
} from '../../contract/verification/presentation-session-list.js';
import {
  failureReasonOf,
  PresentationSession,
  type SessionStatus,
  statusOf,
} from './presentation-session.entity.js';

type Where = FilterQuery<PresentationSession>;

/**
 * The stored rows of a status as of now: `expired` is a pending session past its expiry, and a
 * session awaiting its redirect past the deadline has `failed` (see statusOf), before any sweep.
 */
function whereStatus(status: SessionStatus, now: Date): Where {
  const redirectMissed: Where = {
    status: 'awaiting_redirect',
    $or: [{ responseCodeExpiresAt: null }, { responseCodeExpiresAt: { $lte: now } }],
  };
  switch (status) {
    case 'pending':
      return { status: 'pending', expiresAt: { $gt: now } };
    case 'expired':
      return { status: 'pending', expiresAt: { $lte: now } };
    case 'awaiting_redirect':
      return { status: 'awaiting_redirect', responseCodeExpiresAt: { $gt: now } };
    case 'failed':
      return { $or: [{ status: 'failed' }, redirectMissed] };
    case 'verified':
      return { status: 'verified' };
  }
}

/** An approval's status as the stored session statuses it stands for (see approvalStatusOf). */
const approvalWhere = (status: z.infer<typeof ApprovalListStatus>, now: Date): Where =>
  status === 'approved'
    ? whereStatus('verified', now)
    : status === 'failed'
      ? { $or: [whereStatus('failed', now), whereStatus('expired', now)] }
      : { $or: [whereStatus('pending', now), whereStatus('awaiting_redirect', now)] };

/** A session's status as an approval's: nothing is approved before the session is verified. */
export const approvalStatusOf = (status: SessionStatus): z.infer<typeof ApprovalListStatus> =>
  status === 'verified' ? 'approved' : status === 'failed' || status === 'expired' ? 'failed' : 'pending';

/**
 * A page of a tenant's sessions, newest first (the tenant and created_at index), optionally only
 * approvals'. One more row than the page is read to tell whether more follow.
 */
export async function listPresentationSessions(
  em: EntityManager,
  tenantId: string,
  q: Pick<PresentationSessionQuery, 'limit' | 'before'>,
  filter: { status?: SessionStatus; approval?: z.infer<typeof ApprovalListStatus>; approvalsOnly?: boolean },
) {
  const now = new Date();
  const where: Where[] = [{ tenantId }];
  if (q.before) where.push({ createdAt: { $lt: new Date(q.before) } });
  if (filter.approvalsOnly) where.push({ approvalId: { $ne: null } });
  if (filter.status) where.push(whereStatus(filter.status, now));
  if (filter.approval) where.push(approvalWhere(filter.approval, now));
  const rows = await em.find(PresentationSession, { $and: where } as Where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: q.limit + 1,
  });
  return { rows: rows.slice(0, q.limit), more: rows.length > q.limit };
}

/** What a DCQL query asks for, by name: its vct values, doctypes or W3C types. */
export function credentialTypesOf(s: PresentationSession): string[] {
  if (s.credentialConfigurationId) return [s.credentialConfigurationId];
  const types = new Set<string>();
  const queries = (s.dcqlQuery as { credentials?: { meta?: Record<string, unknown> }[] }).credentials ?? [];
  for (const query of queries) {
    const meta = query.meta ?? {};
    for (const v of [meta.vct_values, meta.doctype_value, meta.type_values].flat(2))
      if (typeof v === 'string') types.add(v);
  }
  return [...types];
}

/** A session of the list: its outcome, never its result. */
export function sessionSummary(s: PresentationSession) {
  const status = statusOf(s);
  return {
    session_id: s.id,
    created_at: s.createdAt.toISOString(),
    status,
    reason: status === 'failed' ? failureReasonOf(s) : null,
    credential_types: credentialTypesOf(s),
    response_mode: s.responseMode,
    approval_id: s.approvalId ?? null,
  };
}

/** An approval of the list: transaction, power and outcome, never the approver's claims. */
export function approvalSummary(s: PresentationSession) {
  const sessionStatus = statusOf(s);
  const reason =
    sessionStatus === 'failed' ? failureReasonOf(s) : sessionStatus === 'expired' ? 'expired' : null;
  return {
    approval_id: s.approvalId ?? '',
    session_id: s.id,
    created_at: s.createdAt.toISOString(),
    status: approvalStatusOf(sessionStatus),
    reason,
    transaction: { type: s.approval?.transaction.type ?? '', subject: s.approval?.transaction.subject ?? '' },
    power: s.approval?.power ?? { function: '', action: '' },
    issuance_id: s.approval?.issuanceId ?? null,
  };
}
