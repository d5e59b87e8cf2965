import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Params, transactionSql } from '../persistence/sql.js';

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

/**
 * The CTEs that store `mails` and their outbox entries as queueMail does, for a statement that
 * records a whole change at once (issuance/record-offer.ts); their values are added to `params`.
 */
export function queueMailsSql(params: Params, mails: MailRequest[], gate?: string): string {
  const rows = mails.map((m) => ({
    id: randomUUID(),
    outbox_id: randomUUID(),
    tenant_id: m.tenantId,
    template: m.template,
    recipient: m.to,
    params: m.params,
  }));
  return `mail as (
       select * from jsonb_to_recordset(${params.add(JSON.stringify(rows))}::jsonb)
         as m(id uuid, outbox_id uuid, tenant_id text, template text, recipient text, params jsonb)${
           gate
             ? `
       where exists (select 1 from ${gate})`
             : ''
         }
     ), mail_message_rows as (
       insert into mail_message (id, tenant_id, template, recipient, params, created_at, sent_at)
       select id, tenant_id, template, recipient, params, now(), null from mail
     ), mail_outbox as (
       insert into outbox_message (id, topic, payload, status, attempts, available_at, last_error, created_at)
       select outbox_id, 'mail', jsonb_build_object('mailId', id::text), 'pending', 0, now(), null, now() from mail
     )`;
}
