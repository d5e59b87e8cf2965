import { MailMessage } from '../../server/mail/mail-message.entity.js';
import { Tenant } from '../../server/tenants/tenant.entity.js';
import type { Processor } from '../job-context.js';
import { renderMail } from './templates.js';

/**
 * Sends one stored message, from its tenant's `mail_from` when set (read at sending time, so a
 * changed sender applies to mail still queued), else from MAIL_FROM. Idempotent: a message already
 * sent is skipped. Once sent, its parameters (which may include a one-time code) are erased.
 */
export const sendMailProcessor: Processor = async ({ mailId }, { em, config, mail, logger }) => {
  const message = await em.findOne(MailMessage, { id: mailId ?? '' });
  if (!message) throw new Error(`mail ${mailId} does not exist`);
  if (message.sentAt) return;
  const rendered = renderMail(message.template, message.params ?? {});
  const tenant = message.tenantId ? await em.findOne(Tenant, { id: message.tenantId }) : null;
  const from = tenant?.mailFrom ?? config.MAIL_FROM;
  await mail.send({ id: message.id, from, to: message.recipient, ...rendered });
  message.sentAt = new Date();
  message.params = null;
  await em.flush();
  logger.info({ mail: message.id, template: message.template }, 'mail sent');
};
