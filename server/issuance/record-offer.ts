import type { EntityManager } from '@mikro-orm/postgresql';
import { statementAudit } from '../audit/audit-log.js';
import { queueMailsSql } from '../mail/queue-mail.js';
import { entityShape, insertRowSql } from '../persistence/entity-rows.js';
import { Params, type Sql } from '../persistence/sql.js';
import type { CreatedIssuance } from './create-issuance.js';
import { Issuance } from './issuance.entity.js';
import type { IssuancePlan } from './plan-issuance.js';

/**
 * Records an offer (ui or e-mail delivery, nothing signed) with one statement and no transaction:
 * the issuance, its mails with their outbox entries, and the audit event, all or nothing. The ORM's
 * unit of work would take a BEGIN, an INSERT per row kind and a COMMIT; the offer is new, so there is
 * nothing to read or lock first.
 */
export async function recordOffer(em: EntityManager, sql: Sql, plan: IssuancePlan): Promise<CreatedIssuance> {
  const { issuance: i, mails } = plan;
  const params = new Params();
  const audit = statementAudit([plan.audit]);
  const text = `with offer as (
      ${insertRowSql(entityShape(em, Issuance), params, i)}
      returning id
    ), ${queueMailsSql(params, mails)}, ${audit.ctes(params, 'offer')}
    select count(*)::int as offers from offer`;
  await sql.query(text, params.values);
  await audit.committed(em);
  return plan.created;
}
