import type { z } from 'zod';
import type { ApprovalTransaction, RequiredPower } from '../../contract/approvals/approval.js';

/** What a presentation session that is an approval keeps of it: the transaction and the power it needs. */
export interface SessionApproval {
  transaction: z.infer<typeof ApprovalTransaction>;
  power: z.infer<typeof RequiredPower>;
  /**
   * The issuance awaiting approval this approval decides (POST /api/v1/issuances/{id}/approval),
   * set only by the service: approved, the issuance is approved too.
   */
  issuanceId?: string;
}
