import type { EntityManager } from '@mikro-orm/postgresql';
import { Issuance } from '../issuance/issuance.entity.js';
import { insertCredentialsSql } from '../issuance/issue-credentials.js';
import { queueMailsSql } from '../mail/queue-mail.js';
import { entityShape, insertRowSql } from '../persistence/entity-rows.js';
import type { Params } from '../persistence/sql.js';
import type { PlannedCredential } from './plan-user-credential.js';

type Planned = Pick<PlannedCredential, 'plans' | 'batch'>;

/**
 * The CTEs writing planned credentials (plan-user-credential.ts), one user's or several users', inside
 * one statement: their issuances, the mails with their outbox rows, and directly delivered
 * credentials; with `gate` (a CTE of the statement) only if the gate yields a row.
 */
export function plannedCredentialCtes(
  em: EntityManager,
  params: Params,
  planned: Planned[],
  gate?: string,
): string[] {
  const issuanceShape = entityShape(em, Issuance);
  const mails = planned.flatMap((c) => c.plans.flatMap((p) => p.mails));
  return [
    ...planned.flatMap((c, k) =>
      c.plans.map((p, i) => `i${k}_${i} as (${insertRowSql(issuanceShape, params, p.issuance, gate)})`),
    ),
    ...(mails.length ? [queueMailsSql(params, mails, gate)] : []),
    ...planned.flatMap(({ batch }, k) =>
      batch
        ? [
            `credentials${k} as (${insertCredentialsSql(params, batch.plan.issuance, batch.configuration, batch.signed, gate)})`,
          ]
        : [],
    ),
  ];
}
