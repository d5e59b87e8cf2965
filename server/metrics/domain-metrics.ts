import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import { Counter, type Registry } from 'prom-client';
import { auditEventsOf } from '../audit/audit-log.js';

/**
 * Why a presentation failed, folded into a few classes (the codes of presentation-error.ts, the
 * session's `invalid_query`, a wallet's `wallet_<error>`, a same-device answer's
 * `redirect_not_followed`), so the label stays small and stable.
 */
const REASON_CLASSES: Record<string, string> = {
  malformed: 'malformed',
  unsupported_format: 'malformed',
  tampered_disclosure: 'malformed',
  invalid_query: 'malformed',
  invalid_signature: 'signature',
  sd_hash_mismatch: 'signature',
  untrusted_issuer: 'trust',
  untrusted_authority: 'trust',
  certificate_untrusted: 'trust',
  certificate_expired: 'trust',
  certificate_not_yet_valid: 'trust',
  certificate_invalid: 'trust',
  certificate_name_mismatch: 'trust',
  expired: 'validity',
  not_yet_valid: 'validity',
  missing_key_binding: 'key_binding',
  wrong_nonce: 'key_binding',
  wrong_audience: 'key_binding',
  stale_key_binding: 'key_binding',
  revoked: 'status',
  suspended: 'status',
  status_unavailable: 'status',
  wrong_vct: 'query_unmet',
  wrong_type: 'query_unmet',
  missing_claims: 'query_unmet',
  missing_credential: 'query_unmet',
  redirect_not_followed: 'redirect',
};

export function reasonClass(reason: unknown): string {
  if (typeof reason !== 'string') return 'other';
  if (reason.startsWith('wallet_')) return 'wallet_declined';
  return REASON_CLASSES[reason] ?? 'other';
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Issuances, verifications and SCIM operations, counted from the audit events each change already
 * writes, once its transaction has committed: a rolled-back change moves nothing, and counting costs
 * no statement. Registered on the ORM's event manager, which every transaction's copy inherits.
 */
export function domainMetrics(registry: Registry): EventSubscriber {
  const offers = new Counter({
    name: 'credservice_offers_created_total',
    help: 'Issuances (offers) created, by delivery modes (comma-separated, sorted)',
    labelNames: ['delivery'],
    registers: [registry],
  });
  const issued = new Counter({
    name: 'credservice_credentials_issued_total',
    help: 'Credentials signed and handed to a wallet or an integrator',
    registers: [registry],
  });
  const sessions = new Counter({
    name: 'credservice_presentation_sessions_created_total',
    help: 'Presentation sessions created by integrators (anonymous sign-in sessions are not stored)',
    registers: [registry],
  });
  const outcomes = new Counter({
    name: 'credservice_presentations_total',
    help: 'Presentation outcomes, verified or failed, with the class of the failure reason',
    labelNames: ['outcome', 'reason'],
    registers: [registry],
  });
  const scim = new Counter({
    name: 'credservice_scim_operations_total',
    help: 'SCIM changes committed, by resource, operation and what became of the credentials',
    labelNames: ['resource', 'operation', 'outcome'],
    registers: [registry],
  });

  const count = (action: string, d: Record<string, unknown>) => {
    if (action === 'issuance.created')
      return offers.inc({ delivery: list(d.delivery).map(String).sort().join(',') });
    if (action === 'credential.issued') return issued.inc(list(d.credentials).length || 1);
    if (action === 'verification.requested') return sessions.inc();
    if (action === 'verification.verified') return outcomes.inc({ outcome: 'verified', reason: '' });
    if (action === 'verification.failed')
      return outcomes.inc({ outcome: 'failed', reason: reasonClass(d.reason) });
    const m = /^scim\.(user|group)\.(created|replaced|updated|deactivated|deleted)$/.exec(action);
    if (!m) return;
    const [, resource = '', operation = ''] = m;
    // A user's outcome is its credential's (issued, renewed, revoked, unchanged, none); a group's
    // tells whether renewing its members' credentials failed for any of them.
    let outcome = list(d.failed).length ? 'renewal_failed' : 'ok';
    if (resource === 'user') outcome = String(d.credential ?? 'none');
    scim.inc({ resource, operation, outcome });
  };

  return {
    afterTransactionCommit(args: TransactionEventArgs) {
      if (!args.transaction) return;
      for (const e of auditEventsOf(args.transaction)) count(e.action, e.details);
    },
  };
}
