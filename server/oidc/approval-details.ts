import type { z } from 'zod';
import { ApprovalAuthorizationDetail } from '../../contract/approvals/approval.js';
import { APPROVAL_QUERY_ID } from '../approvals/approval-session-request.js';
import { approvalTransactionData, builtInDefinition } from '../approvals/approval-transaction-data.js';
import type { SessionApproval } from '../approvals/session-approval.js';
import { DomainError } from '../domain-errors.js';
import type { AuthorizationError } from './authorization-request.js';

/**
 * RFC 9396 `authorization_details` of a sign-in that is an approval: a JSON array of exactly one
 * object of the approval type, with the transaction's members and the required `power`. Anything
 * else (not JSON, another type, several, a member the type does not define, a transaction over its
 * size) is `invalid_authorization_details` (RFC 9396 section 5). Absent: a plain sign-in.
 */
export function readApprovalDetails(
  raw: string | undefined,
  invalid: (description: string) => AuthorizationError,
): SessionApproval | undefined {
  if (raw === undefined) return undefined;
  let details: unknown;
  try {
    details = JSON.parse(raw);
  } catch {
    throw invalid('authorization_details is not JSON');
  }
  if (!Array.isArray(details) || details.length !== 1)
    throw invalid('authorization_details must be an array of one approval');
  const parsed = ApprovalAuthorizationDetail.safeParse(details[0]);
  if (!parsed.success)
    throw invalid(
      `authorization_details[0]: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const { power, ...transaction } = parsed.data as z.infer<typeof ApprovalAuthorizationDetail>;
  try {
    approvalTransactionData(transaction, APPROVAL_QUERY_ID, builtInDefinition(transaction.type));
  } catch (e) {
    if (e instanceof DomainError) throw invalid(`authorization_details[0]: ${e.message}`);
    throw e;
  }
  return { transaction, power };
}
