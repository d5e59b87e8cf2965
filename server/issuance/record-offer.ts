import type { EntityManager } from '@mikro-orm/postgresql';
import { statementAudit } from '../audit/audit-log.js';
import { queueMailsSql } from '../mail/queue-mail.js';
import { Params, type Sql } from '../persistence/sql.js';
import type { CreatedIssuance, IssuancePlan } from './create-issuance.js';

/**
 * Records an offer (ui or e-mail delivery, nothing signed) with one statement and no transaction:
 * the issuance, its mails with their outbox entries, and the audit event, all or nothing. The ORM's
 * unit of work would take a BEGIN, an INSERT per row kind and a COMMIT; the offer is new, so there is
 * nothing to read or lock first.
 */
export async function recordOffer(em: EntityManager, sql: Sql, plan: IssuancePlan): Promise<CreatedIssuance> {
  const { issuance: i, mails } = plan;
  const params = new Params();
  const p = (value: unknown) => params.add(value);
  const audit = statementAudit([plan.audit]);
  const text = `with offer as (
      insert into issuance (id, tenant_id, configuration_id, payload, email, delivery, grant_type,
        offer_uri_scheme, status, tx_code_hash, tx_code_failures, holder_key, created_at, expires_at,
        pre_authorized_code_ttl_seconds, redeemed_at, issued_at)
      values (${p(i.id)}, ${p(i.tenantId)}, ${p(i.configurationId)}, ${p(JSON.stringify(i.payload))}::jsonb,
        ${p(i.email)}, ${p(JSON.stringify(i.delivery))}::jsonb, ${p(i.grantType)}, ${p(i.offerUriScheme)},
        ${p(i.status)}, ${p(i.txCodeHash)}, 0, ${p(i.holderKey && JSON.stringify(i.holderKey))}::jsonb,
        ${p(i.createdAt)}::timestamptz, ${p(i.expiresAt)}::timestamptz, ${p(i.preAuthorizedCodeTtlSeconds)}::int,
        null, null)
      returning id
    ), ${queueMailsSql(params, mails)}, ${audit.ctes(params, 'offer')}
    select count(*)::int as offers from offer`;
  await sql.query(text, params.values);
  await audit.committed(em);
  return plan.created;
}
