import type { AuditEntry } from '../audit/audit-log.js';
import type { ScimUser } from './scim-user.entity.js';
import type { SyncOutcome } from './sync-user-credential.js';

/** The audit event of a SCIM user change: what became of the user's credential, and why. */
export const userChangeAudit = (
  user: Pick<ScimUser, 'id' | 'tenantId'>,
  sync: SyncOutcome,
  action: string,
  actor: string,
): AuditEntry => ({
  tenantId: user.tenantId,
  actor,
  action,
  subject: user.id,
  details: {
    credential: sync.outcome,
    ...(sync.reason ? { reason: sync.reason } : {}),
    issued: sync.issued,
    revoked: sync.revoked,
    ...(sync.offerId ? { issuance: sync.offerId } : {}),
    ...(sync.companionOfferIds ? { companion_issuances: sync.companionOfferIds } : {}),
    ...(sync.companionsSkipped ? { companions_skipped: sync.companionsSkipped } : {}),
  },
});
