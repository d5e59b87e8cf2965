import { z } from 'zod';

export const AuditEvent = z.object({
  id: z.string().uuid(),
  seq: z.number().int().describe('Position in the tenant log, from 1'),
  tenant_id: z.string(),
  actor: z.string().describe('Who made the change: admin, or integrator:<token id>, scim:<token id>'),
  action: z.string().describe('What happened, e.g. tenant.created, token.revoked'),
  subject: z.string().nullable(),
  details: z.record(z.unknown()),
  created_at: z.string().datetime(),
  prev_hash: z.string(),
  hash: z.string(),
});

export const AuditEventQuery = z.object({
  action: z.string().max(100).optional(),
  since: z.string().datetime().optional().describe('Events at or after this time'),
  until: z.string().datetime().optional().describe('Events before this time'),
  after: z.coerce.number().int().min(0).optional().describe('Cursor: events with a larger seq'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const AuditEventPage = z.object({
  items: z.array(AuditEvent),
  next_cursor: z.number().int().nullable().describe('Pass as `after` for the next page; null at the end'),
});

export const AuditChainVerification = z.object({
  valid: z.boolean(),
  checked: z.number().int().describe('Events checked'),
  first_invalid_seq: z.number().int().nullable(),
  reason: z.string().nullable(),
});

export const AuditExportState = z.object({
  last_seq: z.number().int().describe('The last event exported; 0 before the first export'),
  exported_at: z.string().datetime().nullable(),
});

export const AuditExportQueued = z.object({ queued: z.literal(true) });
