import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { transactionSql } from '../persistence/sql.js';

export interface MailRequest {
  tenantId: string | null;
  template: string;
  to: string;
  params: Record<string, string>;
}

/**
 * Stores a message and its outbox entry (outbox/outbox.ts: the relay hands it to the mail worker
 * after commit) in the caller's transaction, in one statement. The outbox payload carries the
 * message id only: a job never holds the address or the parameters.
 */
export async function queueMail(tx: EntityManager, m: MailRequest): Promise<string> {
  const id = randomUUID();
  await transactionSql(tx).query(
    `with message as (
       insert into mail_message (id, tenant_id, template, recipient, params, created_at, sent_at)
       values ($1, $2, $3, $4, $5, now(), null) returning id
     )
     insert into outbox_message (id, topic, payload, status, attempts, available_at, last_error, created_at)
     select $6, 'mail', jsonb_build_object('mailId', id::text), 'pending', 0, now(), null, now() from message`,
    [id, m.tenantId, m.template, m.to, JSON.stringify(m.params), randomUUID()],
  );
  return id;
}
