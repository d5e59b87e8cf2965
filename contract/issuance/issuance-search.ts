import { z } from 'zod';
import { ISSUANCE_STATUSES, Issuance } from './issuance.js';

/** Filters of GET /api/v1/issuances; all optional, combined with AND; newest first. */
export const IssuanceQuery = z.object({
  email: z.string().max(320).optional().describe('The address the offer was delivered to (exact, any case)'),
  status: z.enum([...ISSUANCE_STATUSES, 'expired']).optional(),
  credential_configuration_id: z.string().max(200).optional(),
  created_after: z.string().datetime().optional().describe('Issuances created at or after this time'),
  created_before: z.string().datetime().optional().describe('Issuances created before this time'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

export const IssuancePage = z.object({
  items: z.array(Issuance),
  /** Whether a page follows (offset + limit). */
  more: z.boolean(),
});

/**
 * Why a credential's status changes or an offer is withdrawn; recorded in the audit event and, for
 * status changes, in the webhook's audit trail. Optional: an empty body (or none) is fine.
 */
export const StatusChangeReason = z
  .object({ reason: z.string().trim().min(1).max(500).optional() })
  .strict()
  .describe('The reason, kept in the audit log');

export type IssuanceQuery = z.infer<typeof IssuanceQuery>;
