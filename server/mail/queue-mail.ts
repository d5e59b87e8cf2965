import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEffect } from '../outbox/outbox.js';
import { MailMessage } from './mail-message.entity.js';

export interface MailRequest {
  tenantId: string | null;
  template: string;
  to: string;
  params: Record<string, string>;
}

/** Stores a message and its outbox entry in the caller's transaction; the mail worker sends it. */
export async function queueMail(tx: EntityManager, m: MailRequest): Promise<string> {
  const id = randomUUID();
  await tx.insert(MailMessage, {
    id,
    tenantId: m.tenantId,
    template: m.template,
    recipient: m.to,
    params: m.params,
    createdAt: new Date(),
    sentAt: null,
  });
  await recordEffect(tx, 'mail', { mailId: id });
  return id;
}
