import { z } from 'zod';

export const AuditEvent = z.object({
  id: z.string().uuid(),
  seq: z
    .number()
    .int()
    .nullable()
    .describe('Position in the tenant log, from 1; null while the event waits to be sealed (about a second)'),
  tenant_id: z.string(),
  actor: z.string().describe('Who made the change: admin, or integrator:<token id>, scim:<token id>'),
  action: z.string().describe('What happened, e.g. tenant.created, token.revoked'),
  subject: z.string().nullable(),
  details: z.record(z.unknown()),
  created_at: z.string().datetime(),
  prev_hash: z.string().nullable().describe('Hash of the previous event; null until sealed'),
  hash: z.string().nullable().describe('SHA-256 over the event and prev_hash; null until sealed'),
});

export const AuditEventQuery = z.object({
  action: z.string().max(100).optional(),
  subject: z
    .string()
    .max(200)
    .optional()
    .describe('Events about this subject (a credential id, an issuance id, …)'),
  since: z.string().datetime().optional().describe('Events at or after this time'),
  until: z.string().datetime().optional().describe('Events before this time'),
  after: z.coerce.number().int().min(0).optional().describe('Cursor (order asc): events with a larger seq'),
  before: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Cursor (order desc): events with a smaller seq'),
  order: z
    .enum(['asc', 'desc'])
    .default('asc')
    .describe('asc: oldest first, the unsealed tail last; desc: newest first, the unsealed tail first'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export type AuditEventQuery = z.infer<typeof AuditEventQuery>;

export const AuditEventPage = z.object({
  items: z.array(AuditEvent),
  next_cursor: z
    .number()
    .int()
    .nullable()
    .describe(
      'Pass as `after` (desc: `before`) for the next page; null at the end, where an ascending page also shows the unsealed events',
    ),
});

export const AuditCheckpoint = z.object({
  seq: z.number().int().describe('The last sealed event the checkpoint covers'),
  hash: z.string(),
  sealed_at: z.string().datetime().nullable(),
  kid: z.string().nullable().describe('The `audit` key that signed it'),
  valid: z.boolean().describe('Signature verifies with the audit keys and matches the chain head'),
});

export const AuditChainVerification = z.object({
  valid: z.boolean().describe('The sealed chain, its head and the head’s signed checkpoint verify'),
  checked: z.number().int().describe('Sealed events checked'),
  first_invalid_seq: z.number().int().nullable(),
  reason: z.string().nullable(),
  unsealed: z.number().int().describe('Events appended but not yet sealed, so not yet covered'),
  oldest_unsealed_at: z.string().datetime().nullable(),
  oldest_unsealed_age_ms: z
    .number()
    .int()
    .nullable()
    .describe('How long the oldest unsealed event has waited'),
  checkpoint: AuditCheckpoint.nullable().describe('The signed chain head; null before the first seal'),
});

export const AuditExportState = z.object({
  last_seq: z.number().int().describe('The last event exported; 0 before the first export'),
  exported_at: z.string().datetime().nullable(),
});

export const AuditExportQueued = z.object({ queued: z.literal(true) });
