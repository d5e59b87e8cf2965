import type { EntityManager } from '@mikro-orm/postgresql';
import { MailMessage } from '../../server/mail/mail-message.entity.js';
import { cachedTenant } from '../../server/tenants/tenant-cache.js';
import type { Processor } from '../job-context.js';
import { retryBriefly } from '../retry-briefly.js';
import { renderMail } from './templates.js';

/**
 * Sends one stored message, from its tenant's `mail_from` when set (read at sending time through the
 * node's tenant cache, which every change invalidates, so a changed sender applies to mail still
 * queued), else from MAIL_FROM. Idempotent: a message already sent is skipped. It is marked sent the moment the SMTP server has accepted it, so only a message in
 * the SMTP conversation when a worker dies can go out twice. Once sent, its parameters (which may
 * include a one-time code) are erased.
 */
export const sendMailProcessor: Processor = async ({ mailId }, { em, config, mail, logger }) => {
  const message = await em.findOne(MailMessage, { id: mailId ?? '' });
  if (!message) throw new Error(`mail ${mailId} does not exist`);
  if (message.sentAt) return;
  const rendered = renderMail(message.template, message.params ?? {});
  const tenant = message.tenantId ? await cachedTenant(em, message.tenantId) : undefined;
  const from = tenant?.mailFrom ?? config.MAIL_FROM;
  await mail.send({ id: message.id, from, to: message.recipient, ...rendered });
  await markSent(em, message.id);
  logger.info({ mail: message.id, template: message.template }, 'mail sent');
};

/** The message is out: a database that is briefly away must not turn into sending it again. */
const markSent = (em: EntityManager, id: string) =>
  retryBriefly(() =>
    em.execute('update mail_message set sent_at = now(), params = null where id = ? and sent_at is null', [
      id,
    ]),
  );
