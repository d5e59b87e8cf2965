import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ApprovalCreate } from '../../contract/approvals/approval.js';
import { createPresentationSession } from '../verification/create-presentation-session.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { approvalSessionRequest } from './approval-session-request.js';
import type { SessionApproval } from './session-approval.js';
import { transactionDataDefinition } from './transaction-data-types.js';

const EMPLOYEE_CREDENTIAL = 'LEARCredentialEmployee';

/**
 * An approval: a presentation session for the approver's credential (every claim, `power` among
 * them) whose request carries the transaction as OpenID4VP `transaction_data` bound to that
 * credential query, and remembers the power the approval requires. Only a format whose holder
 * binding carries transaction data hashes can authorize (400 otherwise).
 */
export async function createApproval(
  em: EntityManager,
  s: VerifierServices,
  tenantId: string,
  actor: string,
  body: z.infer<typeof ApprovalCreate>,
  /** What the approval decides once approved, besides itself (an issuance awaiting approval). */
  decides: Pick<SessionApproval, 'issuanceId'> = {},
) {
  const configurationId = body.credential_configuration_id ?? EMPLOYEE_CREDENTIAL;
  const definition = await transactionDataDefinition(em, tenantId, body.transaction.type);
  const approval: SessionApproval = { transaction: body.transaction, power: body.power, ...decides };
  const { id, sessionRequest } = await approvalSessionRequest(em, configurationId, approval, definition);
  const created = await createPresentationSession(em, s, tenantId, actor, {
    credential_configuration_id: configurationId,
    response_mode: body.response_mode ?? 'direct_post.jwt',
    redirect_uri: body.redirect_uri,
    expected_origins: body.expected_origins,
    ...sessionRequest,
  });
  return { id, created };
}
