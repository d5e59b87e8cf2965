import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxMessage } from './outbox-message.entity.js';

export const TOPICS = ['mail', 'status-list', 'audit-export', 'audit-seal', 'webhook'] as const;
export type Topic = (typeof TOPICS)[number];

/**
 * Records an effect in the caller's transaction; the relay hands it to a worker after commit.
 * The payload carries ids only: a job must never hold credentials or personal data.
 */
export async function recordEffect(
  tx: EntityManager,
  topic: Topic,
  payload: Record<string, string>,
): Promise<string> {
  if (!tx.isInTransaction()) throw new Error('recordEffect must run inside the transaction of the change');
  const id = randomUUID();
  await tx.insert(OutboxMessage, {
    id,
    topic,
    payload,
    status: 'pending',
    attempts: 0,
    availableAt: new Date(),
    lastError: null,
    createdAt: new Date(),
    finishedAt: null,
  });
  return id;
}
