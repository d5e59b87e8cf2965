import { z } from 'zod';
import { ApprovalTransaction, RequiredPower } from '../approvals/approval.js';
import { PresentationSessionStatus, ResponseMode } from './authorization-request.js';

/** The page of a list: newest first; `before` takes the last item's created_at to read on. */
const paging = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z
    .string()
    .datetime()
    .optional()
    .describe('Only those created before this time: the created_at of the last item of the previous page'),
};

/** Filters of GET /api/v1/authorization-request; newest first. */
export const PresentationSessionQuery = z.object({
  status: PresentationSessionStatus.optional(),
  ...paging,
});

/**
 * A presentation session in a list: its outcome, never what was presented (the disclosed claims are
 * personal data; GET /api/v1/authorization-request/{id} shows them once verified).
 */
export const PresentationSessionSummary = z.object({
  session_id: z.string(),
  created_at: z.string().datetime(),
  status: PresentationSessionStatus,
  reason: z.string().nullable().describe('Once failed: the machine-readable reason'),
  credential_types: z
    .array(z.string())
    .describe('What was asked for: the configuration id, or the vct/doctype values of the DCQL query'),
  response_mode: ResponseMode,
  approval_id: z.string().nullable().describe('Set when the session is an approval’s'),
});

export const PresentationSessionPage = z.object({
  items: z.array(PresentationSessionSummary),
  more: z.boolean().describe('Whether older sessions follow (ask again with before)'),
});

export const ApprovalListStatus = z.enum(['pending', 'approved', 'failed']);

/** Filters of GET /api/v1/approvals; newest first. */
export const ApprovalQuery = z.object({ status: ApprovalListStatus.optional(), ...paging });

/** An approval in a list: the transaction and power asked for and the outcome, never the approver. */
export const ApprovalSummary = z.object({
  approval_id: z.string(),
  session_id: z.string(),
  created_at: z.string().datetime(),
  status: ApprovalListStatus,
  reason: z.string().nullable().describe('Once failed: why (expired, mandate_insufficient, …)'),
  transaction: ApprovalTransaction.pick({ type: true, subject: true }),
  power: RequiredPower,
  issuance_id: z.string().nullable().describe('The issuance awaiting approval it decides, if any'),
});

export const ApprovalPage = z.object({ items: z.array(ApprovalSummary), more: z.boolean() });

export type PresentationSessionQuery = z.infer<typeof PresentationSessionQuery>;
export type ApprovalQuery = z.infer<typeof ApprovalQuery>;
