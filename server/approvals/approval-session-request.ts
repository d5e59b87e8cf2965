import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { validationError } from '../domain-errors.js';
import { credentialFormat } from '../formats/credential-formats.js';
import type { SessionRequest } from '../verification/create-presentation-session.js';
import { approvalTransactionData, type TransactionDataDefinition } from './approval-transaction-data.js';
import type { SessionApproval } from './session-approval.js';

/** The id of the credential query of an approval's session (buildDcqlForConfiguration's default). */
export const APPROVAL_QUERY_ID = 'credential';

/**
 * What makes a presentation session an approval, for the integrator's API and the OpenID provider
 * alike: the transaction as OpenID4VP `transaction_data` bound to the session's credential query,
 * and the approval (its new id, transaction and required power) kept with the session. Only a
 * format whose holder binding carries transaction data hashes can authorize: a 400 on the
 * configuration otherwise, as for a configuration that does not exist.
 */
export async function approvalSessionRequest(
  em: EntityManager,
  configurationId: string,
  approval: SessionApproval,
  definition?: TransactionDataDefinition,
): Promise<{ id: string; sessionRequest: Pick<SessionRequest, 'transaction_data' | 'approval'> }> {
  const configuration = await findConfiguration(em, configurationId);
  const field = 'credential_configuration_id';
  if (!configuration) throw validationError([{ field, message: 'unknown credential configuration' }]);
  if (!credentialFormat(configuration.format)?.bindsTransactionData)
    throw validationError([
      {
        field,
        message: `${configuration.format} presentations cannot carry transaction data here; use an SD-JWT VC configuration`,
      },
    ]);
  const id = `apr_${randomBytes(16).toString('base64url')}`;
  const transactionData = approvalTransactionData(approval.transaction, APPROVAL_QUERY_ID, definition);
  return { id, sessionRequest: { transaction_data: [transactionData], approval: { id, approval } } };
}
