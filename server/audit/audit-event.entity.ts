import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * One sealed entry of a tenant's append-only audit log. `seq` numbers a tenant's events from 1;
 * `hash` covers the event and `prevHash`, so that changing or removing any row breaks the chain.
 * Events wait in `audit_pending` until the sealer (audit-sealer.ts) moves them here.
 */
export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_event',
  properties: {
    id: p.uuid().primary(),
    tenantId: p.string(),
    seq: p.integer(),
    actor: p.string(),
    action: p.string(),
    subject: p.string().nullable(),
    details: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
    prevHash: p.string(),
    hash: p.string(),
  },
});

export type AuditEvent = InferEntity<typeof AuditEvent>;
