import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ApprovalCreate } from '../../contract/approvals/approval.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { validationError } from '../domain-errors.js';
import { credentialFormat } from '../formats/credential-formats.js';
import { createPresentationSession } from '../verification/create-presentation-session.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { approvalTransactionData } from './approval-transaction-data.js';
import { transactionDataDefinition } from './transaction-data-types.js';

const EMPLOYEE_CREDENTIAL = 'LEARCredentialEmployee';
/** The id of the credential query of an approval's session (buildDcqlForConfiguration's default). */
const QUERY_ID = 'credential';

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
) {
  const configurationId = body.credential_configuration_id ?? EMPLOYEE_CREDENTIAL;
  const configuration = await findConfiguration(em, configurationId);
  if (!configuration)
    throw validationError([
      { field: 'credential_configuration_id', message: 'unknown credential configuration' },
    ]);
  if (!credentialFormat(configuration.format)?.bindsTransactionData)
    throw validationError([
      {
        field: 'credential_configuration_id',
        message: `${configuration.format} presentations cannot carry transaction data here; use an SD-JWT VC configuration`,
      },
    ]);
  const definition = await transactionDataDefinition(em, tenantId, body.transaction.type);
  const transactionData = approvalTransactionData(body.transaction, QUERY_ID, definition);
  const id = `apr_${randomBytes(16).toString('base64url')}`;
  const created = await createPresentationSession(em, s, tenantId, actor, {
    credential_configuration_id: configurationId,
    response_mode: body.response_mode ?? 'direct_post.jwt',
    redirect_uri: body.redirect_uri,
    expected_origins: body.expected_origins,
    transaction_data: [transactionData],
    approval: { id, approval: { transaction: body.transaction, power: body.power } },
  });
  return { id, created };
}
