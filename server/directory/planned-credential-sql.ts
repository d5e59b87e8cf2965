import type { EntityManager } from '@mikro-orm/postgresql';
import { Issuance } from '../issuance/issuance.entity.js';
import { insertCredentialsSql } from '../issuance/issue-credentials.js';
import { queueMailsSql } from '../mail/queue-mail.js';
import { entityShape, insertRowSql } from '../persistence/entity-rows.js';
import type { Params } from '../persistence/sql.js';
import type { PlannedCredential } from './plan-user-credential.js';

/**
 * The CTEs writing a planned credential (plan-user-credential.ts) inside a user's one statement: its
 * issuances, the mails with their outbox rows, and a directly delivered credential; with `gate` (a CTE
 * of the statement) only if the gate yields a row.
 */
export function plannedCredentialCtes(
  em: EntityManager,
  params: Params,
  planned: Pick<PlannedCredential, 'plans' | 'batch'> | undefined,
  gate?: string,
): string[] {
  if (!planned) return [];
  const issuanceShape = entityShape(em, Issuance);
  const mails = planned.plans.flatMap((p) => p.mails);
  const { batch } = planned;
  return [
    ...planned.plans.map((p, i) => `i${i} as (${insertRowSql(issuanceShape, params, p.issuance, gate)})`),
    ...(mails.length ? [queueMailsSql(params, mails, gate)] : []),
    ...(batch
      ? [
          `credentials as (${insertCredentialsSql(params, batch.plan.issuance, batch.configuration, batch.signed, gate)})`,
        ]
      : []),
  ];
}
