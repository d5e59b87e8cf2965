import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const OUTBOX_STATUSES = ['pending', 'dispatched', 'done', 'dead'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * An effect that must not be lost, written in the transaction of the change that causes it.
 * `payload` holds ids only, never credentials or personal data.
 */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox_message',
  properties: {
    id: p.uuid().primary(),
    topic: p.string(),
    payload: p.json<Record<string, string>>(),
    status: p.enum(OUTBOX_STATUSES),
    attempts: p.integer(),
    availableAt: p.datetime(),
    lastError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    finishedAt: p.datetime().nullable(),
  },
});

export type OutboxMessage = InferEntity<typeof OutboxMessage>;
