import type { Sql } from '../../server/persistence/sql.js';
import { cachedTenant } from '../../server/tenants/tenant-cache.js';
import type { Completion, Processor } from '../job-context.js';
import { renderMail } from './templates.js';

interface StoredMail {
  tenant_id: string | null;
  template: string;
  recipient: string;
  params: Record<string, string> | null;
  sent: boolean;
}

/**
 * Sends one stored message, from its tenant's `mail_from` when set (read at sending time through the
 * node's tenant cache, which every change invalidates, so a changed sender applies to mail still
 * queued), else from MAIL_FROM. Idempotent: a message already sent is skipped (its outbox row is
 * still marked done by the dispatcher). A sent message's Completion marks it sent, erases its
 * parameters (which may include a one-time code) and marks its outbox row done in one statement;
 * the dispatcher runs it as soon as the SMTP server has accepted the message, under retryBriefly (a
 * database blip must not send it again), so only a message in the SMTP conversation when a worker
 * dies can go out twice. The message is
 * read by a prepared statement of just its columns: nothing here goes through the unit of work.
 */
export const sendMailProcessor: Processor = async ({ mailId = '' }, { em, sql, config, mail, logger }) => {
  const [message] = await sql.query<StoredMail>(
    'select tenant_id, template, recipient, params, sent_at is not null as sent from mail_message where id = $1',
    [mailId],
  );
  if (!message) throw new Error(`mail ${mailId} does not exist`);
  if (message.sent) return;
  const rendered = renderMail(message.template, message.params ?? {});
  const tenant = message.tenant_id ? await cachedTenant(em, message.tenant_id) : undefined;
  const from = tenant?.mailFrom ?? config.MAIL_FROM;
  await mail.send({ id: mailId, from, to: message.recipient, ...rendered });
  logger.info({ mail: mailId, template: message.template }, 'mail sent');
  return sentAndDone(sql, mailId);
};

/**
 * One write for a sent message: the mail row (only if no other worker recorded it first) and the
 * job's outbox row. A data-modifying CTE runs to completion whether or not the outer statement reads
 * it, so the outbox row is marked done even when the mail row was already marked sent.
 */
const sentAndDone =
  (sql: Sql, mailId: string): Completion =>
  async (outboxId) => {
    await sql.query(
      `with sent as (update mail_message set sent_at = now(), params = null where id = $1 and sent_at is null)
       update outbox_message set status = 'done', finished_at = now(), last_error = null where id = $2`,
      [mailId, outboxId],
    );
  };
