import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A message waiting to be sent. The mail job carries only this row's id; the template parameters
 * (which may hold a one-time code) are erased once the message has gone out.
 */
export const MailMessage = defineEntity({
  name: 'MailMessage',
  tableName: 'mail_message',
  properties: {
    id: p.uuid().primary(),
    tenantId: p.string().nullable(),
    template: p.string(),
    recipient: p.string(),
    params: p.json<Record<string, string>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    sentAt: p.datetime().nullable(),
  },
});

export type MailMessage = InferEntity<typeof MailMessage>;
