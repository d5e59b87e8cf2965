import type { WebhookEvent, WebhookEventType } from '../../contract/admin/webhook.js';

/** The parts of an audit event a webhook is derived from. */
export interface AuditFacts {
  tenant_id: string;
  action: string;
  subject: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * The webhook an audited change raises, if any. Audit actions are the one record of what changed,
 * so the webhooks follow them: every change that is audited and worth telling has its event here.
 * The payload names things by id only; no personal data leaves with it.
 */
export function webhookEventOf(a: AuditFacts): WebhookEvent | undefined {
  const subject = a.subject ?? '';
  const d = a.details;
  const event = (type: WebhookEventType, data: WebhookEvent['data']): WebhookEvent => ({
    type,
    timestamp: a.created_at,
    tenant_id: a.tenant_id,
    data,
  });
  switch (a.action) {
    case 'offer.redeemed':
      return event('issuance.redeemed', { issuance_id: subject });
    // Deferred issuance: the wallet waits on the integrator's decision.
    case 'issuance.awaiting_approval':
    case 'issuance.approved':
    case 'issuance.declined':
      return event(a.action, {
        issuance_id: subject,
        credential_configuration_id: text(d.configuration),
        // Approved by a presented approval (POST /api/v1/issuances/{id}/approval): which one.
        ...(text(d.approval) ? { approval_id: text(d.approval) } : {}),
      });
    case 'credential.issued':
      return event('credential.issued', {
        issuance_id: subject,
        credential_configuration_id: text(d.configuration),
        credential_ids: ids(d.credentials),
      });
    case 'credential.revoked':
    case 'credential.suspended':
    case 'credential.unsuspended':
      return event(a.action, { credential_id: subject });
    // An approval is a presentation session underneath; its integrator hears of it as an approval.
    case 'verification.verified':
      if (text(d.approval))
        return event('approval.verified', { approval_id: text(d.approval), session_id: subject });
      return event('presentation.verified', {
        session_id: subject,
        credential_type: text(d.credential_type) ?? null,
      });
    case 'verification.failed':
      if (text(d.approval))
        return event('approval.failed', {
          approval_id: text(d.approval),
          session_id: subject,
          reason: text(d.reason),
        });
      return event('presentation.failed', { session_id: subject, reason: text(d.reason) });
    case 'scim.user.created':
      return event('scim.user.provisioned', {
        scim_user_id: subject,
        credential_outcome: text(d.credential),
        credential_ids: ids(d.issued),
        issuance_id: text(d.issuance),
      });
    case 'scim.user.deactivated':
    case 'scim.user.deleted':
      return event('scim.user.deprovisioned', {
        scim_user_id: subject,
        reason: a.action === 'scim.user.deleted' ? 'deleted' : 'deactivated',
        credential_ids: ids(d.revoked),
      });
    default:
      return undefined;
  }
}
